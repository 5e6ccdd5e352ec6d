"""Bluff bots: they only ever pick legal actions, replay exactly, and the cautious bot
beats random play."""

from __future__ import annotations

import dataclasses
import random

import pytest

from usotsuki.bluff import (
    BluffRules,
    apply,
    legal_actions,
    new_game,
    parse_action,
    start_round,
    view,
)
from usotsuki.bluff.actions import ALL_CALLS, CHALLENGE, FIRST_STRONGER
from usotsuki.bluff.deal import deal_hands
from usotsuki.bots import bot_names, make_bot
from usotsuki.bots.base import Bot
from usotsuki.cards import parse_cards
from usotsuki.odds import call_probability


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



def test_cautious_weighs_every_legal_raise() -> None:
    """Over a full house the legal raises number 180: the straight flush this hand holds
    lies beyond the first 120, and the bot raises to it rather than challenge a call about
    as likely as not (it once looked at ``legal[:120]`` only, and challenged)."""
    state = new_game(BluffRules(players=2, max_cards=9))
    state = start_round(state, deal_hands(state, random.Random(1))).state
    seat = state.to_move
    assert seat is not None
    current = parse_action("full-house 3 K")
    hand = parse_cards(["3S", "3D", "3C", "8S", "9H", "TH", "JH", "QH", "KH"])
    v = dataclasses.replace(view(state, seat), hand=hand, hand_sizes=(9, 9),
                            calls=((1 - seat, current),))
    legal = (*ALL_CALLS[FIRST_STRONGER[current.index]:], CHALLENGE)
    flush = parse_action("straight-flush K H")
    assert legal.index(flush) >= 120
    assert 0.5 < call_probability(current, hand, 9) < 0.52
    assert make_bot("bluff", "cautious").act(v, legal, random.Random(0)) == flush
