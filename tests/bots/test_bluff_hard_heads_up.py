"""Bluff ``hard`` at a table of two: its own settings (HARD_HEADS_UP: the expert's belief
and read of the caller, on hard's budget); at a table of three or more, HARD's
decisions, to the end of the game."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from usotsuki.bluff import (
    BluffRules,
    BluffState,
    legal_actions,
    new_game,
    parse_action,
    push,
    start_round,
)
from usotsuki.bluff import view as seat_view
from usotsuki.bluff.deal import deal_hands
from usotsuki.bots.bluff.exploiters import HardAnswer
from usotsuki.bots.bluff.levels import HARD, HARD_HEADS_UP, HardBluffBot
from usotsuki.bots.bluff.search import SearchBluffBot


def facing_pair_5(players: int, seed: int) -> BluffState:
    """A dealt round (two cards each) whose first caller said "pair 5"."""
    state = new_game(BluffRules(players=players, max_cards=3))
    state = start_round(state, deal_hands(state, random.Random(seed))).state
    state = push(state, parse_action("card 9"))
    return push(state, parse_action("pair 5"))


def same(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> bool:
    return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_hard_searches_with_its_heads_up_settings_at_a_table_of_two_only() -> None:
    bot = HardBluffBot()
    table, heads_up = SearchBluffBot(HARD), SearchBluffBot(HARD_HEADS_UP)
    differ = 0
    for players in (2, 3, 4):
        for seed in range(4):
            state = facing_pair_5(players, seed)
            assert state.to_move is not None
            v = seat_view(state, state.to_move)
            expected = heads_up if players == 2 else table
            assert bot.search_for(v) is bot.heads_up if players == 2 else bot.table
            got = bot.distribution(v, random.Random(seed))
            assert same(got, expected.distribution(v, random.Random(seed)))
            legal = list(legal_actions(state))
            assert bot.act(v, legal, random.Random(seed)) == expected.act(
                v, legal, random.Random(seed))
            if players == 2:  # the expert's belief, not normal's map for the call only
                mine = bot.search_for(v).believe(v, random.Random(seed)).probs
                differ += not np.allclose(mine, table.believe(v, random.Random(seed)).probs)
    assert differ == 4


def test_a_larger_table_down_to_two_seats_keeps_hards_table_settings() -> None:
    # B2: eliminated seats hold no cards; a 4-player game down to two seats plays HARD
    # (the ladder's endgames), a table of two HARD_HEADS_UP
    bot = HardBluffBot()
    v = seat_view(facing_pair_5(4, 0), 2)
    assert bot.search_for(replace(v, hand_sizes=(0, 2, 2, 0))).settings is HARD
    assert bot.search_for(seat_view(facing_pair_5(2, 0), 0)).settings is HARD_HEADS_UP


def test_the_faithful_readers_answer_model_follows_the_table() -> None:
    # x-faithful-hard's look-ahead answers with the candidate rule over the belief of the
    # search hard plays at that table
    answer = HardAnswer()
    for players in (2, 4):
        state = facing_pair_5(players, 1)
        assert state.to_move is not None
        v = seat_view(state, state.to_move)
        search = answer.bot.search_for(v)
        assert search.settings is (HARD_HEADS_UP if players == 2 else HARD)
        indices, weights = answer.distribution(v, random.Random(3))
        assert indices.size == weights.size > 0 and abs(weights.sum() - 1.0) < 1e-9
