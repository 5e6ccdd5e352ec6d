"""``uniform_action``: a uniform draw among the concrete legal actions (issue 15 moved it
from benchmarks/liar_bench.py into the core, so it runs compiled). It must draw exactly
what the benchmark's own version drew (the reference below) and only legal actions."""

from __future__ import annotations

import random
from math import comb
from typing import Any

import pytest

from usotsuki.liar import (
    ACCEPT,
    DOUBT,
    PASS,
    Give,
    LiarRules,
    Play,
    deal,
    is_legal,
    legal_summary,
    new_game,
    next_game,
    push,
    uniform_action,
)

ALL = {"multi": True, "revolution": True, "eight_cut": True, "jack_back": True,
       "six_up": True, "binding": True, "classes": True}


def reference(state: Any, rng: random.Random) -> Any:
    """benchmarks/liar_bench.py's uniform_action before issue 15, verbatim."""
    hand = state.hands[state.to_move]
    if state.owed:
        _giver, _receiver, count = state.owed[0]
        return Give(tuple(rng.sample(hand, count)))
    summary = legal_summary(state)
    others = [a for a, ok in ((PASS, summary.pass_), (DOUBT, summary.doubt),
                              (ACCEPT, summary.accept)) if ok]
    counts, rates = summary.counts, summary.rates
    h = len(hand)
    subsets = sum(comb(h, c) for c in counts) if rates else 0
    pick = rng.randrange(len(others) + subsets * len(rates))
    if pick < len(others):
        return others[pick]
    rate = rates[rng.randrange(len(rates))]
    if len(counts) == 1:
        count = counts[0]
        if count == 1:
            return Play((hand[rng.randrange(h)],), rate)
        return Play(tuple(rng.sample(hand, count)), rate)
    if counts == tuple(range(1, h + 1)):
        bits = 0
        while not bits:
            bits = rng.getrandbits(h)
        return Play(tuple(c for i, c in enumerate(hand) if bits >> i & 1), rate)
    count = rng.choices(counts, [comb(h, c) for c in counts])[0]
    return Play(tuple(rng.sample(hand, count)), rate)


@pytest.mark.parametrize("options", [{}, ALL], ids=["plain", "all"])
def test_uniform_action_draws_what_the_benchmark_drew(options: dict[str, bool]) -> None:
    for seed in range(8):
        rules = LiarRules(players=3 + seed % 4, **options)
        rng = random.Random(seed)
        hands, stock = deal(rules, rng)
        state = new_game(rules, hands, stock, seed)
        for game in range(3 if rules.classes else 1):
            if game:
                hands, stock = deal(rules, rng)
                state = next_game(state, hands, stock).state
            while state.to_move is not None:
                ours, theirs = random.Random(), random.Random()
                ours.seed(rng.random())
                theirs.setstate(ours.getstate())
                action = uniform_action(state, ours)
                assert action == reference(state, theirs)
                assert ours.getstate() == theirs.getstate()
                assert is_legal(state, action)
                state = push(state, action)


def test_no_action_once_the_game_is_over() -> None:
    rules = LiarRules(players=3)
    rng = random.Random(1)
    state = new_game(rules, *deal(rules, rng))
    while state.to_move is not None:
        state = push(state, uniform_action(state, rng))
    with pytest.raises(ValueError):
        uniform_action(state, rng)
