"""``usotsuki.core.draws``: the cores' faster draws take exactly what ``random.Random``'s own
methods take (values and generator state after), so deals, flushes (Part 4 fixes the L8
shuffle as ``random.Random.shuffle``) and seeded play are unchanged (issue 15)."""

from __future__ import annotations

import random

import pytest

from usotsuki.core import draws


def test_the_restated_algorithms_agree_with_this_python() -> None:
    assert draws.EXACT


@pytest.mark.parametrize("seed", range(6))
def test_shuffle_randbelow_and_sample_draw_what_random_draws(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [*range(1, 60), 64, 65, 127, 128, 129, 1000, 2**31, 2**40 + 3]:
        assert draws.randbelow(ours, n) == theirs.randrange(n)
    for n in range(0, 60):
        mine, lib = list(range(n)), list(range(n))
        draws.shuffle(ours, mine)
        theirs.shuffle(lib)
        assert mine == lib
        population = tuple(range(100, 100 + n))
        for k in sorted({k for k in (0, 1, 2, n // 3, n // 2, n - 1, n) if 0 <= k <= n}):
            assert draws.sample(ours, population, k) == theirs.sample(population, k)
    assert ours.getstate() == theirs.getstate()


def test_other_generators_use_their_own_methods() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    rng = Counting(3)
    draws.shuffle(rng, [1, 2, 3])
    assert Counting.calls == 1


def test_bad_ranges_raise_and_draw_nothing() -> None:
    rng = random.Random(1)
    before = rng.getstate()
    with pytest.raises(ValueError):
        draws.randbelow(rng, 0)
    with pytest.raises(ValueError):
        draws.sample(rng, (1, 2), 3)
    with pytest.raises(ValueError):
        draws.sample(rng, (1, 2), -1)
    assert rng.getstate() == before
