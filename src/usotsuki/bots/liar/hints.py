"""The hint on the Liar Game's current play (:mod:`usotsuki.bots.hints`): the calibrated
belief "given how people play" and the exact odds "from the cards alone", read from the
seat's own view."""

from __future__ import annotations

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


def suggestion_reason(view: LiarView, suggestion: Action) -> str:
    """Why the adviser suggests ``suggestion``, in one sentence the player can check: the
    current play's chance of being truthful given how people play, what a doubt risks,
    or whether a play is truthful."""
    from usotsuki.bots.liar.calibrated import hint_truth

    field = sum(p.count for p in view.field)
    p = hint_truth(view) if view.field and view.field[-1].seat != view.seat else None
    if isinstance(suggestion, Doubt):
        return (f"doubt: the play is truthful only {p or 0.0:.0%} given how people play; a "
                f"lie makes its player take the field's {field} cards (L9)")
    if isinstance(suggestion, Play):
        cards = len(suggestion.cards)
        rate = RATE_NAMES[suggestion.rate]
        if all(CARD_RATE[c] == suggestion.rate for c in suggestion.cards):
            return f"a truthful play: your {cards} card(s) are {rate}s, so a doubt of it fails"
        return (f"a lie: not all {cards} card(s) are {rate}s, yet it sheds them unless "
                "someone doubts it")
    if isinstance(suggestion, Accept):
        return "accept: the play emptied its player's hand (L10)"
    if isinstance(suggestion, Give):
        return "the class exchange (O7)"
    if p is not None:
        return (f"pass: the play is truthful {p:.0%} given how people play, and a failed "
                f"doubt would give you the field's {field} cards (L9)")
    return "pass: draw a card rather than lie (L6)"
