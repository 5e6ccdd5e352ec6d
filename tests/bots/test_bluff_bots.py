"""Bluff bots: they only ever pick legal actions, replay exactly, and the cautious bot
beats random play."""

from __future__ import annotations

import random

import pytest

from usotsuki.bluff import BluffRules, apply, legal_actions, new_game, start_round, view
from usotsuki.bluff.deal import deal_hands
from usotsuki.bots import bot_names, make_bot
from usotsuki.bots.base import Bot


def play_game(bots: list[Bot], seed: int, max_cards: int = 5) -> tuple[tuple[int, ...], ...]:
    rng, bot_rng = random.Random(seed), random.Random(seed + 1)
    state = new_game(BluffRules(players=len(bots), dealer=seed % len(bots), max_cards=max_cards))
    while not state.is_over:
        if state.needs_deal:
            state = start_round(state, deal_hands(state, rng)).state
            continue
        seat = state.to_move
        assert seat is not None
        legal = legal_actions(state)
        action = bots[seat].act(view(state, seat), legal, bot_rng)
        assert action in legal
        state = apply(state, action).state
    standings = state.standings
    assert standings is not None
    return standings


@pytest.mark.parametrize("name", bot_names("bluff"))
def test_bots_play_legal_actions_and_replay_exactly(name: str) -> None:
    bots = [make_bot("bluff", name) for _ in range(4)]
    max_cards = 2 if name == "expert" else 5  # a shorter game for the searching bot
    assert play_game(bots, 5, max_cards) == play_game(bots, 5, max_cards)


def test_unknown_bot_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="known: random, cautious, easy, normal, hard, expert"):
        make_bot("bluff", "genius")


def test_cautious_beats_random() -> None:
    wins = 0
    games = 60
    for seed in range(games):
        bots = [make_bot("bluff", "random") for _ in range(3)]
        seat = seed % 3
        bots[seat] = make_bot("bluff", "cautious")
        wins += play_game(bots, seed)[0][0] == seat
    assert wins / games > 0.6  # a third would be a fair share
