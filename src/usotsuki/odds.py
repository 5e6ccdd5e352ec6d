"""Exact odds of Bluff calls from one seat's knowledge (B8), by counting.

The other players hold ``unseen`` cards drawn uniformly from the ``52 - len(hand)`` cards
this seat cannot see (``4 * ranks - len(hand)`` with a short deck, B13: a call naming a
rank outside the deck is no call of that game, and gets probability 0). A call names at
most two ranks (or five cards of a straight flush), so its probability is a short
multivariate-hypergeometric sum: exact, no sampling.

A call's probability depends only on how many of its named cards the hand holds, so
:func:`call_probabilities` fills all 326 at once from a small table per ``(pool, unseen)``
(cached) with numpy indexing: a few microseconds once the table exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from usotsuki.bluff.actions import ALL_CALLS, Call, CallKind, calls_for
from usotsuki.bluff.state import requirements
from usotsuki.cards import Card


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


def call_probability(call: Call, hand: Sequence[Card], unseen: int, ranks: int = 13
                     ) -> float:
    """The probability that ``call`` is true given ``hand`` and the ``unseen`` cards
    the other players hold together, dealt from a deck of the ``ranks`` highest ranks."""
    pool = 4 * ranks - len(hand)
    if ranks != 13 and call not in calls_for(ranks):
        return 0.0  # B13: its cards are not in the deck
    own = set(hand)
    groups = []
    for group, need in requirements(call):  # B8
        have = sum(c in own for c in group)
        if need > have:
            groups.append((len(group) - have, need - have))
    return _at_least(pool, unseen, tuple(groups)) if groups else 1.0


def all_call_probabilities(hand: Sequence[Card], unseen: int, ranks: int = 13
                           ) -> list[float]:
    """:func:`call_probability` for every call, in :data:`ALL_CALLS` order."""
    return [float(p) for p in call_probabilities(hand, unseen, ranks)]


def _call_tables() -> tuple[npt.NDArray[np.int64], ...]:
    """Per rank call (B6, B8): its two ranks and the cards needed of each (0 for none);
    per straight flush its five cards (rank * 4 + suit)."""
    r1, n1, r2, n2, sf = [], [], [], [], []
    for call in ALL_CALLS:
        reqs = requirements(call)  # B8
        if call.kind is CallKind.STRAIGHT_FLUSH:
            sf.append([int(c) for c in reqs[0][0]])
            continue
        (first, need1), *second = reqs
        r1.append(first[0].rank)
        n1.append(need1)
        r2.append(second[0][0][0].rank if second else 0)
        n2.append(second[0][1] if second else 0)
    return tuple(np.array(a, dtype=np.int64) for a in (r1, n1, r2, n2, sf))


RANK1, NEED1, RANK2, NEED2, STRAIGHT_CARDS = _call_tables()
"""The calls as arrays, in ALL_CALLS order: rank calls first, then the straight flushes
from index :data:`FIRST_STRAIGHT`."""
FIRST_STRAIGHT = len(RANK1)


@lru_cache(maxsize=4096)
def _tables(pool: int, unseen: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``rank[n1, h1, n2, h2]``: a rank call needing n1 and n2 cards of two ranks when the
    hand holds h1 and h2 of them; ``straight[m]``: a straight flush missing m cards."""
    rank = np.zeros((5, 5, 5, 5))
    for n1 in range(1, 5):  # B6: a rank call needs 1 to 4 cards of its first rank ...
        for h1 in range(5):
            for n2 in (0, 2):  # ... and none or two (two pairs, full house) of a second
                for h2 in range(5):
                    groups = tuple((4 - h, n - h) for n, h in ((n1, h1), (n2, h2)) if n > h)
                    rank[n1, h1, n2, h2] = _at_least(pool, unseen, groups) if groups else 1.0
    straight = np.array([_at_least(pool, unseen, ((m, m),)) if m else 1.0 for m in range(6)])
    return rank, straight


@lru_cache(maxsize=16)
def deck_mask(ranks: int) -> npt.NDArray[np.bool_]:
    """B13: which of the 326 calls (in :data:`ALL_CALLS` order) the deck has (read-only)."""
    mask = np.array(calls_for(ranks).exists, dtype=bool)
    mask.flags.writeable = False
    return mask


def call_probabilities(hand: Sequence[Card], unseen: int, ranks: int = 13
                       ) -> npt.NDArray[np.float64]:
    """:func:`call_probability` for all 326 calls at once, in :data:`ALL_CALLS` order
    (0 for the calls a short deck does not have, B13)."""
    rank, straight = _tables(4 * ranks - len(hand), unseen)
    held = np.zeros(52, dtype=np.int64)
    held[list(hand)] = 1
    counts = held.reshape(13, 4).sum(axis=1)
    ranked = rank[NEED1, counts[RANK1], NEED2, counts[RANK2]]
    missing = 5 - held[STRAIGHT_CARDS].sum(axis=1)
    probs = np.concatenate([ranked, straight[missing]])
    if ranks != 13:
        probs[~deck_mask(ranks)] = 0.0
    return probs


def call_probabilities_rows(held: npt.NDArray[np.bool_], unseen: int, ranks: int = 13
                            ) -> npt.NDArray[np.float64]:
    """:func:`call_probabilities` for many hands of one size at once: ``held`` is (n, 52),
    row i marking the cards of hand i; the result is (n, 326). The bots use it to ask
    what a seat would believe under each of many hypothetical hands."""
    n = held.shape[0]
    size = int(held[0].sum()) if n else 0
    rank, straight = _tables(4 * ranks - size, unseen)
    counts = held.reshape(n, 13, 4).sum(axis=2)
    ranked = rank[NEED1, counts[:, RANK1], NEED2, counts[:, RANK2]]
    missing = 5 - held[:, STRAIGHT_CARDS].sum(axis=2)
    probs = np.concatenate([ranked, straight[missing]], axis=1)
    if ranks != 13:
        probs[:, ~deck_mask(ranks)] = 0.0
    return probs
