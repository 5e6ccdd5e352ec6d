"""The solved strategies as a bot's policy (issue 14): where they apply, and the expert
playing them there."""

from __future__ import annotations

import dataclasses
import random

import pytest

from usotsuki.bluff import (
    BluffRules,
    BluffState,
    deal_unchecked,
    legal_actions,
    new_game,
    push,
    view,
)
from usotsuki.bluff.actions import CHALLENGE
from usotsuki.bluff.notation import parse_action
from usotsuki.bots.bluff import solved
from usotsuki.bots.bluff.expert_v1 import ExpertV1BluffBot
from usotsuki.bots.bluff.levels import ExpertBluffBot
from usotsuki.cards import parse_cards


def heads_up(ranks: int, first: list[str], other: list[str], calls: list[str]) -> BluffState:
    rules = BluffRules(players=2, max_cards=3, ranks=ranks, dealer=1)  # seat 0 calls first
    state = new_game(rules)
    state = dataclasses.replace(state, losses=(len(first) - 1, len(other) - 1))  # B3
    state = deal_unchecked(state, (parse_cards(first), parse_cards(other)))
    for c in calls:
        state = push(state, parse_action(c))
    return state


def test_covered_rounds() -> None:
    assert set(solved.covered()) == {f"r{r}-{a}v{b}" for r in (4, 5, 6)
                                     for a, b in ((1, 1), (1, 2), (2, 1))} | {"r4-2v2"}


@pytest.mark.parametrize(("ranks", "first", "other", "calls"), [
    (4, ["AS"], ["KH"], []),
    (4, ["AS"], ["KH"], ["card K"]),
    (5, ["TS"], ["KH", "KD"], ["card A", "pair K"]),
    (4, ["JS", "QS"], ["AH"], ["pair Q"]),
])
def test_policy_is_a_distribution_over_legal_actions(ranks: int, first: list[str],
                                                     other: list[str], calls: list[str]) -> None:
    state = heads_up(ranks, first, other, calls)
    seat = state.to_move
    dist = solved.policy(view(state, seat))
    assert dist is not None
    assert sum(dist.values()) == pytest.approx(1.0)
    legal = set(legal_actions(state))
    assert set(dist) <= legal and all(p > 0 for p in dist.values())


def test_a_history_the_stored_strategy_never_plays_into_is_not_covered() -> None:
    # Holding T in r5-1v2 the first caller names A (the stored strategy keeps actions of
    # probability 1e-3 and more, and what they reach): after its "card T" the archive has
    # nothing, and the expert searches.
    assert set(solved.policy(view(heads_up(5, ["TS"], ["KH", "KD"], []), 0)) or ()) <= {
        parse_action("card A"), parse_action("card K")}
    state = heads_up(5, ["TS"], ["KH", "KD"], ["card T", "pair K"])
    assert solved.policy(view(state, 0)) is None
    assert ExpertBluffBot().act(view(state, 0), legal_actions(state), random.Random(1)) in \
        legal_actions(state)


def test_a_call_that_cannot_be_true_is_challenged() -> None:
    state = heads_up(4, ["AS"], ["KH"], ["three A"])  # B8: three cards named, two in play
    assert solved.policy(view(state, 1)) == {CHALLENGE: 1.0}


@pytest.mark.parametrize("rules", [BluffRules(players=3, ranks=4),
                                   BluffRules(players=2, ranks=13)])
def test_not_covered_elsewhere(rules: BluffRules) -> None:
    state = new_game(rules)
    hands = tuple(parse_cards([c]) for c in ("AS", "KH", "QD")[:rules.players])
    state = deal_unchecked(state, hands)
    assert solved.policy(view(state, state.to_move)) is None
    other = ((state.to_move or 0) + 1) % rules.players
    assert solved.policy(view(state, other)) is None  # not its turn


@pytest.mark.parametrize("bot", [ExpertV1BluffBot, ExpertBluffBot])
def test_the_experts_play_the_solved_strategy_where_it_applies(bot: type) -> None:
    state = heads_up(4, ["AS"], ["KH"], ["card A"])
    v = view(state, 1)
    dist = solved.policy(v)
    assert dist is not None
    for seed in range(5):
        assert bot().act(v, legal_actions(state), random.Random(seed)) in dist


@pytest.mark.parametrize(("ranks", "first", "other", "calls"), [
    (4, ["JS", "AS"], ["KH", "KD"], []),  # r4-2v2
    (4, ["JS", "AS"], ["KH", "KD"], ["pair K"]),
    (6, ["9S"], ["KH", "AD"], ["card K"]),  # r6-1v2
    (6, ["9S", "9H"], ["AD"], []),  # r6-2v1
])
def test_the_expert_plays_every_shipped_round(ranks: int, first: list[str], other: list[str],
                                              calls: list[str]) -> None:
    state = heads_up(ranks, first, other, calls)
    v = view(state, state.to_move)
    dist = solved.policy(v)
    assert dist is not None and sum(dist.values()) == pytest.approx(1.0)
    assert set(dist) <= set(legal_actions(state))
    rng = random.Random(1)
    draws = {ExpertBluffBot().act(v, legal_actions(state), rng) for _ in range(20)}
    assert draws <= set(dist)
