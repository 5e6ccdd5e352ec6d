"""A Bluff bot that never bids beyond what its own cards and the odds make plausible."""

from __future__ import annotations

import random
from collections.abc import Sequence

from usotsuki.bluff.actions import Action, Call, Challenge
from usotsuki.bluff.view import BluffView
from usotsuki.odds import call_probabilities, call_probability


class CautiousBluffBot:
    """Raises only to calls that are likely true given its cards (exact odds, B8);
    challenges a call that its cards make unlikely, or when no plausible raise is left."""

    name = "cautious"

    def __init__(self, plausible: float = 0.5, doubt_below: float = 0.4) -> None:
        self.plausible = plausible
        self.doubt_below = doubt_below

    def act(self, view: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        hand = view.hand or ()
        unseen = view.cards_in_play - len(hand)
        odds = call_probabilities(hand, unseen, view.ranks)  # every call at once (B8)
        raises = [(float(odds[a.index]), a) for a in legal if isinstance(a, Call)]
        challenge = next((a for a in legal if isinstance(a, Challenge)), None)
        best = max((p for p, _ in raises), default=0.0)
        if challenge is not None and view.current_call is not None:
            # A challenge wins when the call is false; a raise, roughly, when it is true.
            p_current = call_probability(view.current_call, hand, unseen, view.ranks)
            if p_current < self.doubt_below or 1.0 - p_current > best:
                return challenge
        # The weakest few plausible raises, so the bot does not leap needlessly; when
        # nothing is plausible, the likeliest call.
        floor = min(self.plausible, best)
        plausible = [a for p, a in raises if p >= floor]
        return plausible[rng.randrange(min(3, len(plausible)))]
