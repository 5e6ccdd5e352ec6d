"""A Liar Game bot that plays uniformly at random among the legal kinds of action."""

from __future__ import annotations

import random

from usotsuki.bots.liar.common import owed_size
from usotsuki.liar.actions import ACCEPT, DOUBT, PASS, Action, Give, Play
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.view import LiarView


class RandomLiarBot:
    """Each legal kind (play, pass, doubt, accept) equally likely; then a play's count,
    rate and cards uniformly among the allowed (as the core's ``random_action``, but built
    from the seat's view: its own hand and the ``LegalSummary``, never the state)."""

    name = "random"

    def act(self, view: LiarView, legal: LegalSummary, rng: random.Random) -> Action:
        hand = view.hand or ()
        if legal.give:  # O7: this seat owes the first exchange still open
            return Give(tuple(rng.sample(hand, owed_size(view))))
        kinds: list[Action | None] = [a for a, ok in ((PASS, legal.pass_), (DOUBT, legal.doubt),
                                                      (ACCEPT, legal.accept)) if ok]
        if legal.play:
            kinds.append(None)  # None stands for "some play"
        kind = kinds[rng.randrange(len(kinds))]
        if kind is not None:
            return kind
        count = legal.counts[rng.randrange(len(legal.counts))]
        return Play(tuple(rng.sample(hand, count)), legal.rates[rng.randrange(len(legal.rates))])

    def distribution(self, view: LiarView, legal: LegalSummary) -> dict[Action, float]:
        """Each move's probability under :meth:`act`, for one-card plays (without O1)."""
        if legal.give or (legal.play and legal.counts != (1,)):
            raise ValueError("the distribution is written for one-card plays, no gives")
        kinds = [a for a, ok in ((PASS, legal.pass_), (DOUBT, legal.doubt),
                                 (ACCEPT, legal.accept)) if ok]
        share = 1 / (len(kinds) + legal.play)
        probs: dict[Action, float] = {a: share for a in kinds}
        hand = view.hand or ()
        if legal.play:
            for card in hand:
                for rate in legal.rates:
                    probs[Play((card,), rate)] = share / len(hand) / len(legal.rates)
        return probs
