"""Exact Bluff odds (usotsuki.odds) against brute-force enumeration and Monte Carlo."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from usotsuki.bluff import ALL_CALLS, is_true
from usotsuki.cards import DECK, Card, parse_cards
from usotsuki.odds import all_call_probabilities, call_probabilities, call_probability


def brute_force(hand: tuple[Card, ...], unseen: int) -> list[float]:
    """Every way the others can hold ``unseen`` of the cards this seat cannot see, each
    equally likely; the fraction in which each call is true (B8, judged by the core)."""
    pool = [c for c in DECK if c not in hand]
    true = [0] * len(ALL_CALLS)
    total = 0
    for others in itertools.combinations(pool, unseen):
        hands = (hand, others)
        total += 1
        for i, call in enumerate(ALL_CALLS):
            true[i] += is_true(call, hands)
    return [t / total for t in true]


@pytest.mark.parametrize(("hand", "unseen"), [
    ("", 1), ("AS", 1), ("7H 7D", 2), ("2S 3S 4S 5S", 1), ("AS 2S 3S 4S", 1),
    ("KH KD KC 9S 9H", 2), ("TS JS QS KS", 2), ("5C", 2),
])
def test_all_326_agree_with_enumeration(hand: str, unseen: int) -> None:
    cards = tuple(parse_cards(hand.split()))
    exact = brute_force(cards, unseen)
    assert all_call_probabilities(cards, unseen) == pytest.approx(exact, abs=1e-12)


def test_agree_with_monte_carlo_on_a_large_table() -> None:
    rng = random.Random(1)
    hand = tuple(rng.sample(DECK, 5))
    unseen = 25
    pool = [c for c in DECK if c not in hand]
    samples = 2500
    true = [0] * len(ALL_CALLS)
    for _ in range(samples):
        hands = (hand, tuple(rng.sample(pool, unseen)))
        for i, call in enumerate(ALL_CALLS):
            true[i] += is_true(call, hands)
    exact = all_call_probabilities(hand, unseen)
    for i, call in enumerate(ALL_CALLS):
        p = exact[i]
        sigma = max((p * (1 - p) / samples) ** 0.5, 1 / samples)
        assert abs(true[i] / samples - p) < 5 * sigma + 1e-9, (str(call), p, true[i] / samples)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), max_size=8, unique=True), st.integers(0, 44))
def test_table_lookup_equals_the_counting_formula(hand: list[Card], unseen: int) -> None:
    unseen = min(unseen, 52 - len(hand))
    fast = call_probabilities(hand, unseen)
    for i, call in enumerate(ALL_CALLS):
        assert fast[i] == pytest.approx(call_probability(call, hand, unseen), abs=1e-12)


def test_certain_and_impossible_calls() -> None:
    hand = tuple(parse_cards(["7S", "7H", "7D"]))
    probs = dict(zip(map(str, ALL_CALLS), all_call_probabilities(hand, 0), strict=True))
    assert probs["three 7"] == 1.0 and probs["card 7"] == 1.0
    assert probs["four 7"] == 0.0 and probs["pair 8"] == 0.0  # B8: nobody else holds cards
    assert dict(zip(map(str, ALL_CALLS), all_call_probabilities(hand, 49),
                    strict=True))["four 7"] == 1.0  # every other card is in play
