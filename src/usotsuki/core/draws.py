"""Draws from a ``random.Random`` for the cores' hot paths, exactly as its methods draw.

``shuffle``, ``randbelow`` (``randrange(n)``) and ``sample`` here return what the
generator's own methods return from the same state, and leave it in the same state: the
same ``getrandbits`` calls in the same order (``random.py``'s algorithms, restated). They
exist for speed: ``random.py`` runs as Python code, ~20 us to shuffle a deck;
compiled with mypyc, these call the generator's C ``getrandbits`` directly, ~5x faster. So
an L3 deal, an L8 flush (whose shuffle Part 4 fixes as ``random.Random.shuffle``) and a
seeded bot draw the same cards either way.

Only a plain ``random.Random`` takes this route; a subclass (``SystemRandom``, one that
overrides ``random()``) gets its own methods. At import the restated algorithms are checked
against this Python's ``random`` module on a few seeded draws; should a Python version draw
differently, every call goes to the methods themselves (:data:`EXACT` is then False).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import ceil, log
from typing import Final, TypeVar

T = TypeVar("T")

_RANDOM: Final = random.Random


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``Random._randbelow_with_getrandbits(n)``: rejection sampling on ``n``'s bit length."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _shuffle(rng: random.Random, items: list[T]) -> None:
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        j = _below(getrandbits, i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1


def _sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    getrandbits = rng.getrandbits
    result: list[T] = []
    setsize = 21  # random.py's choice between its two methods, to draw the same numbers
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = _below(getrandbits, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for _ in range(k):
            j = _below(getrandbits, n)
            while j in selected:
                j = _below(getrandbits, n)
            selected.add(j)
            result.append(population[j])
    return result


def _agrees() -> bool:
    """Whether the restated algorithms draw what this Python's ``random`` draws."""
    for seed in range(4):
        ours, theirs = _RANDOM(seed), _RANDOM(seed)
        for n in (1, 2, 5, 13, 52):
            mine, lib = list(range(n)), list(range(n))
            _shuffle(ours, mine)
            theirs.shuffle(lib)
            if mine != lib or _below(ours.getrandbits, n) != theirs.randrange(n):
                return False
            for k in (0, 1, n // 2, n):
                if _sample(ours, range(n), k) != theirs.sample(range(n), k):
                    return False
        if ours.getstate() != theirs.getstate():
            return False
    return True


EXACT: Final[bool] = _agrees()
"""True when this module's draws are its own (checked at import), else the methods'."""


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: shuffle ``items`` in place."""
    if EXACT and type(rng) is _RANDOM:
        _shuffle(rng, items)
    else:
        rng.shuffle(items)


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: an integer ``0 <= r < n``.

    :raises ValueError: when ``n`` is not positive.
    """
    if n <= 0:
        raise ValueError(f"empty range for randbelow({n})")
    if EXACT and type(rng) is _RANDOM:
        return _below(rng.getrandbits, n)
    return rng.randrange(n)


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``rng.sample(population, k)``: ``k`` distinct positions of ``population``, in
    selection order.

    :raises ValueError: when ``k`` is negative or larger than the population.
    """
    if EXACT and type(rng) is _RANDOM:
        return _sample(rng, population, k)
    return rng.sample(population, k)
