"""Deals as chance outcomes, one card at a time, for the OpenSpiel games.

A hand is dealt in ascending card order: the next card of a seat that still needs ``left``
cards, among the ``available`` cards above its last one, is ``c`` with probability
``C(#above c, left - 1) / C(#available above the last, left)`` (the chance that ``c`` is the
lowest card of a uniform ``left``-subset). So every set of cards comes out with the same
probability as a shuffled deck gives it (B3, L3), and each set has one history, not
``left!`` orders: game trees stay as small as the sets of hands allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb


def ascending_outcomes(available: Sequence[int], last: int, left: int
                       ) -> list[tuple[int, float]]:
    """The (card, probability) outcomes for the next card of a hand dealt lowest first.

    ``available``: the undealt cards, ascending; ``last``: the hand's highest card so far
    (-1 for none); ``left``: how many cards the hand still needs (>= 1)."""
    above = [c for c in available if c > last]
    total = comb(len(above), left)
    outcomes = []
    for i, c in enumerate(above):
        rest = len(above) - i - 1  # cards above c, to fill the other left - 1 places
        if rest < left - 1:
            break
        outcomes.append((c, comb(rest, left - 1) / total))
    return outcomes


def uniform_outcomes(available: Sequence[int]) -> list[tuple[int, float]]:
    """Each available card with the same probability (a stock's next card, L3)."""
    p = 1.0 / len(available)
    return [(c, p) for c in available]


def place_returns(standings: Sequence[Sequence[int]], players: int) -> list[float]:
    """Rewards by place, zero-sum, from +1 (first) to -1 (last) in equal steps: the
    ``k``-th of ``players`` places is worth ``1 - 2k / (players - 1)``. Players who share
    a place (L11) share the places they span, so each gets their mean."""
    returns = [0.0] * players
    k = 0
    for place in standings:
        span = range(k, k + len(place))
        value = sum(1 - 2 * i / (players - 1) for i in span) / len(place)
        for seat in place:
            returns[seat] = value
        k += len(place)
    return returns
