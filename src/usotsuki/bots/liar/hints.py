"""The hint on the Liar Game's current play (:mod:`usotsuki.bots.hints`): the calibrated
belief "given how people play" and the exact odds "from the cards alone", read from the
seat's own view."""

from __future__ import annotations

from usotsuki.bots.hints import TruthHint
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
