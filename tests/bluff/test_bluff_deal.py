"""Bluff's deals: ``deal.sample`` is ``random.Random.sample`` exactly (issue 15), so seeded
games deal the same cards whichever way they are drawn, compiled or not."""

from __future__ import annotations

import random

import pytest

from usotsuki.bluff import BluffRules, new_game
from usotsuki.bluff.deal import deal_hands, deck, sample
from usotsuki.cards import DECK


@pytest.mark.parametrize("n", [1, 2, 8, 21, 22, 40, 52])
def test_sample_draws_what_random_sample_draws(n: int) -> None:
    population = DECK[:n]
    for seed in range(60):
        for k in range(n + 1):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert sample(ours, population, k) == theirs.sample(population, k)
            assert ours.getstate() == theirs.getstate()  # the generator moved the same


def test_other_generators_and_bad_sizes_go_to_random_sample() -> None:
    class Mine(random.Random):
        pass

    assert sample(Mine(3), DECK, 5) == Mine(3).sample(DECK, 5)
    with pytest.raises(ValueError):
        sample(random.Random(1), DECK[:3], 4)


def test_deal_hands_is_the_deal_random_sample_makes() -> None:
    for players in (2, 5, 8):
        state = new_game(BluffRules(players=players))
        for seed in range(50):
            cards = random.Random(seed).sample(deck(), players)
            expected = tuple((c,) for c in cards)
            assert deal_hands(state, random.Random(seed)) == expected
