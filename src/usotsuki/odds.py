"""Exact odds of Bluff calls from one seat's knowledge (B8), by counting.

The other players hold ``unseen`` cards drawn uniformly from the ``52 - len(hand)`` cards
this seat cannot see. A call names at most two ranks (or five cards of a straight
flush), so its probability is a short multivariate-hypergeometric sum: exact, no sampling.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb

from usotsuki.bluff.actions import ALL_CALLS, Call, CallKind
from usotsuki.bluff.state import straight_ranks
from usotsuki.cards import Card, card

_NEEDS = {CallKind.CARD: (1,), CallKind.PAIR: (2,), CallKind.TWO_PAIR: (2, 2),
          CallKind.THREE: (3,), CallKind.FULL_HOUSE: (3, 2), CallKind.FOUR: (4,)}


def _c(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


@lru_cache(maxsize=65536)
def _at_least(pool: int, drawn: int, groups: tuple[tuple[int, int], ...]) -> float:
    """P(each group i gets >= need_i of its size_i cards) when ``drawn`` of ``pool`` are
    dealt. ``groups`` holds (size, need) pairs; the other cards of the pool are neutral."""
    if drawn < 0 or drawn > pool:
        return 0.0
    total = _c(pool, drawn)
    rest = pool - sum(size for size, _ in groups)
    if len(groups) == 1:
        (size, need), = groups
        ways = sum(_c(size, x) * _c(rest, drawn - x) for x in range(need, size + 1))
    else:
        (s1, n1), (s2, n2) = groups
        ways = sum(_c(s1, x1) * _c(s2, x2) * _c(rest, drawn - x1 - x2)
                   for x1 in range(n1, s1 + 1) for x2 in range(n2, s2 + 1))
    return ways / total


def call_probability(call: Call, hand: Sequence[Card], unseen: int) -> float:
    """The probability that ``call`` is true given ``hand`` and the ``unseen`` cards
    the other players hold together."""
    pool = 52 - len(hand)
    if call.kind is CallKind.STRAIGHT_FLUSH:
        assert call.suit is not None
        own = set(hand)
        missing = sum(card(r, call.suit) not in own for r in straight_ranks(call.ranks[0]))
        return _at_least(pool, unseen, ((missing, missing),)) if missing else 1.0
    counts = [0] * 13
    for c in hand:
        counts[c >> 2] += 1
    groups = []
    for rank, need in zip(call.ranks, _NEEDS[call.kind], strict=False):
        still = need - counts[rank]
        if still > 0:
            groups.append((4 - counts[rank], still))
    if not groups:
        return 1.0
    return _at_least(pool, unseen, tuple(groups))


def all_call_probabilities(hand: Sequence[Card], unseen: int) -> list[float]:
    """:func:`call_probability` for every call, in :data:`ALL_CALLS` order."""
    return [call_probability(call, hand, unseen) for call in ALL_CALLS]
