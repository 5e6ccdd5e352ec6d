"""Bluff bots on a short deck (RULES.md B13): they never propose a call outside the deck,
and their beliefs deal only the deck's cards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from usotsuki.bluff import (
    ALL_CALLS,
    CHALLENGE,
    BluffRules,
    apply,
    calls_for,
    legal_actions,
    new_game,
    parse_action,
    start_round,
    view,
)
from usotsuki.bluff.deal import deal_hands, deck
from usotsuki.bots import bot_names, make_bot
from usotsuki.bots.base import Bot
from usotsuki.bots.bluff.belief import BeliefModel, sample
from usotsuki.bots.bluff.levels import ExpertBluffBot
from usotsuki.bots.bluff.policy import DETERMINISTIC, NO_CALL, choose, deck_probs
from usotsuki.cards import parse_cards
from usotsuki.odds import call_probabilities


def bot(name: str) -> Bot:
    if name == "expert":  # a light search keeps the test short; the same code runs
        return ExpertBluffBot(worlds=24, particles=64)
    return make_bot("bluff", name)


@pytest.mark.parametrize("ranks", [2, 4, 6])
@pytest.mark.parametrize("name", bot_names("bluff"))
def test_b13_bots_only_call_the_deck_s_calls(name: str, ranks: int) -> None:
    rng, bot_rng = random.Random(ranks), random.Random(ranks + 1)
    bots = [bot(name) for _ in range(3)]
    state = new_game(BluffRules(players=3, max_cards=min(3, 4 * ranks // 3), ranks=ranks))
    exists = calls_for(ranks)
    while not state.is_over:
        if state.needs_deal:
            state = start_round(state, deal_hands(state, rng)).state
            continue
        seat = state.to_move
        assert seat is not None
        legal = legal_actions(state)
        action = bots[seat].act(view(state, seat), legal, bot_rng)
        assert action in legal and (action == CHALLENGE or action in exists)
        state = apply(state, action).state


def test_b13_the_fixed_rule_never_raises_outside_the_deck() -> None:
    # Four ranks (J Q K A): after "four K" only "four A" remains; after it, nothing.
    probs = deck_probs(np.full(len(ALL_CALLS), 0.9), 4)
    assert set(np.flatnonzero(probs >= 0)) == {c.index for c in calls_for(4).calls}
    four_k, four_a = parse_action("four K"), parse_action("four A")
    after_k = calls_for(4).first_stronger[four_k.index]
    start = ALL_CALLS.index(calls_for(4).calls[after_k])
    assert choose(probs, start, 0.9, DETERMINISTIC, random.Random(0)) == four_a.index
    start = four_a.index + 1  # the straight flushes follow, none in this deck (B10, B13)
    assert probs[start:].max() == NO_CALL
    assert choose(probs, start, 0.9, DETERMINISTIC, random.Random(0)) == -1


def test_b13_beliefs_deal_only_the_deck_s_cards() -> None:
    state = start_round(new_game(BluffRules(players=3, max_cards=3, ranks=6)),
                        [parse_cards(["9S"]), parse_cards(["KD"]), parse_cards(["TC"])]).state
    particles = sample(view(state, 0), random.Random(2), BeliefModel(particles=200))
    held = np.flatnonzero(particles.presence.any(axis=0))
    assert set(held) <= {int(c) for c in deck(6)}
    assert particles.presence.sum(axis=1).tolist() == [3] * 200
    probs = particles.probabilities()
    outside = [c.index for c in ALL_CALLS if c not in calls_for(6)]
    assert probs[outside].max() == 0.0


def test_b13_bot_odds_use_the_short_deck() -> None:
    # Holding 9S, 23 unseen cards are the whole rest of a 24-card deck: a pair of 9s is
    # certain; with 52 cards it is not.
    hand = parse_cards(["9S"])
    pair_9 = parse_action("pair 9").index
    assert call_probabilities(hand, 23, 6)[pair_9] == 1.0
    assert call_probabilities(hand, 23)[pair_9] < 1.0
