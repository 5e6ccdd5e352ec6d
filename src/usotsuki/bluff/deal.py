"""Making deals: the shell-side randomness of Bluff (B3). The rules never shuffle."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from math import ceil, log

from usotsuki.bluff.state import BluffState, Hands
from usotsuki.cards import DECK, Card

# The exact ``random.Random.sample`` below is checked against the standard library's on
# these versions (tests/bluff/test_bluff_deal.py); elsewhere ``rng.sample`` itself runs.
_SAMPLE_CHECKED = sys.version_info[:2] == (3, 11)


def deck(ranks: int = 13) -> tuple[Card, ...]:
    """B13: the cards of a deck of the ``ranks`` highest ranks, lowest first."""
    return DECK[4 * (13 - ranks):]


def deal_hands(state: BluffState, rng: random.Random) -> Hands:
    """B3: shuffle the whole deck and give each seat still in the game ``losses + 1`` cards.

    B13: the deck is the four suits of the ``ranks`` highest ranks (all 52 by default).
    """
    sizes = [state.hand_size(seat) for seat in range(state.players)]
    return split_hands(sample(rng, deck(state.rules.ranks), sum(sizes)), sizes)


def split_hands(cards: Sequence[Card], sizes: Sequence[int]) -> Hands:
    """Each seat in order takes its ``sizes[seat]`` cards from the front of ``cards``;
    each hand sorted."""
    hands = []
    start = 0
    for size in sizes:
        hands.append(tuple(sorted(cards[start:start + size])))
        start += size
    return tuple(hands)


def sample(rng: random.Random, population: Sequence[Card], k: int) -> list[Card]:
    """``rng.sample(population, k)``: the same cards in the same order from the same
    generator state, drawn faster where that is checked (a plain ``random.Random`` on
    CPython 3.11, compiled). Half of random play's time went to ``random.sample``'s Python
    code and its ``_randbelow``; this is CPython's algorithm, calling the
    generator's C ``getrandbits`` directly."""
    n = len(population)
    if type(rng) is not random.Random or not _SAMPLE_CHECKED or not 0 <= k <= n:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    result: list[Card] = []
    setsize = 21  # CPython: a small set's size minus an empty list's
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:  # pick from a shrinking pool
        pool = list(population)
        for i in range(k):
            m = n - i  # _randbelow(m): rejection sampling on m's bit length
            bits = m.bit_length()
            j = getrandbits(bits)
            while j >= m:
                j = getrandbits(bits)
            result.append(pool[j])
            pool[j] = pool[m - 1]
    else:  # pick indices, redrawing repeats
        bits = n.bit_length()
        selected: set[int] = set()
        for _ in range(k):
            j = getrandbits(bits)
            while j >= n or j in selected:  # out of range, or a repeat: _randbelow(n) anew
                j = getrandbits(bits)
            selected.add(j)
            result.append(population[j])
    return result
