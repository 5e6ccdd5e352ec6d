"""The hint on the Liar Game's current play (:mod:`usotsuki.bots.hints`): the calibrated
belief "given how people play" and the exact odds "from the cards alone", read from the
seat's own view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from usotsuki.bots.hints import TruthHint
from usotsuki.liar.actions import CARD_RATE, RATE_NAMES, Accept, Action, Doubt, Give, Play
from usotsuki.liar.view import LiarView


def liar_truth_hint(view: LiarView) -> TruthHint | None:
    """The hint on the Liar Game's current play for ``view``'s seat; None when there is
    no current play or it is the seat's own."""
    from usotsuki.bots.liar.calibrated import hint_truth
    from usotsuki.odds_liar import truth_probability

    odds = truth_probability(view)
    if odds is None:
        return None
    return TruthHint(hint_truth(view), odds)


ADVISER = "expert"  # the one bot behind hint, auto and the browser's suggestion

# The reasons' sentences, by key; the browser has them in each language
# (static/js/messages/*: ``advice.<game>.<key>``), with the same arguments.
REASONS = {
    "doubt": "doubt: the play is truthful only {p:.0%} given how people play; a lie makes "
             "its player take the field's {field} cards (L9)",
    "truthful_play": "a truthful play: your {cards} card(s) are {rate}s, so a doubt of it "
                     "fails",
    "lie_play": "a lie: not all {cards} card(s) are {rate}s, yet it sheds them unless "
                "someone doubts it",
    "accept": "accept: the play emptied its player's hand (L10)",
    "give": "the class exchange (O7)",
    "pass_doubtful": "pass: the play is truthful {p:.0%} given how people play, and a "
                     "failed doubt would give you the field's {field} cards (L9)",
    "pass_draw": "pass: draw a card rather than lie (L6)",
}


def suggest(view: LiarView, legal: Sequence[Action]) -> Action:
    """The adviser's move, seeded from the view: asking never changes the bots' draws."""
    from usotsuki import liar
    from usotsuki.bots.base import make_bot

    move: Action = make_bot("liar", ADVISER).act(view, legal,
                                                 random.Random(liar.info_key(view)))
    return move


def suggestion_reason(view: LiarView, suggestion: Action) -> str:
    """Why the adviser suggests ``suggestion``, in one sentence the player can check
    (:func:`reason_of`)."""
    key, args = reason_of(view, suggestion)
    return REASONS[key].format(**args)


def reason_of(view: LiarView, suggestion: Action) -> tuple[str, dict[str, str | int | float]]:
    """The reason's key in :data:`REASONS` and its arguments: the current play's chance
    of being truthful given how people play, what a doubt risks, or whether a play is
    truthful."""
    from usotsuki.bots.liar.calibrated import hint_truth

    field = sum(p.count for p in view.field)
    p = hint_truth(view) if view.field and view.field[-1].seat != view.seat else None
    if isinstance(suggestion, Doubt):
        return "doubt", {"p": float(p or 0.0), "field": field}
    if isinstance(suggestion, Play):
        args: dict[str, str | int | float] = {"cards": len(suggestion.cards),
                                              "rate": RATE_NAMES[suggestion.rate]}
        if all(CARD_RATE[c] == suggestion.rate for c in suggestion.cards):
            return "truthful_play", args
        return "lie_play", args
    if isinstance(suggestion, Accept):
        return "accept", {}
    if isinstance(suggestion, Give):
        return "give", {}
    if p is not None:
        return "pass_doubtful", {"p": float(p), "field": field}
    return "pass_draw", {}
