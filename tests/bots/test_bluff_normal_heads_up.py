"""Bluff ``normal`` at a table of two: its own rule (NORMAL_HEADS_UP: no bluffs, honest
raises at 0.7); at a table of three or more, NORMAL_RULE's decisions, to the end."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from usotsuki.bluff import BluffRules, BluffState, new_game, parse_action, push, start_round
from usotsuki.bluff import view as seat_view
from usotsuki.bluff.actions import ALL_CALLS
from usotsuki.bluff.deal import deal_hands
from usotsuki.bots.bluff.calibration import beliefs
from usotsuki.bots.bluff.levels import NORMAL_HEADS_UP, NORMAL_RULE, NormalBluffBot
from usotsuki.bots.bluff.policy import deck_probs, distribution, first_legal_index
from usotsuki.cards import parse_cards


def facing_card_9(players: int, seed: int) -> BluffState:
    """A dealt round (one card each) whose first caller said "card 9"."""
    state = new_game(BluffRules(players=players))
    state = start_round(state, deal_hands(state, random.Random(seed))).state
    return push(state, parse_action("card 9"))


def test_normal_plays_its_heads_up_rule_at_a_table_of_two_only() -> None:
    # At a table of three or more normal's decision is NORMAL_RULE's over its belief (the
    # 4-player ladder's decisions); at a table of two, NORMAL_HEADS_UP's: no bluffs, and
    # a raise below 0.7 by its belief only when it is the likeliest legal call.
    bot = NormalBluffBot()
    weak_raises = {2: 0, 3: 0, 4: 0}
    for players in (2, 3, 4):
        for seed in range(8):
            state = facing_card_9(players, seed)
            assert state.to_move is not None
            v = seat_view(state, state.to_move)
            rule = NORMAL_HEADS_UP if players == 2 else NORMAL_RULE
            assert bot.rule_for(v) is rule
            probs, p_current = beliefs(v, random.Random(seed), bot.cal, bot.particles)
            probs = deck_probs(probs, v.ranks)
            start = first_legal_index(v)
            indices, weights = bot.distribution(v, random.Random(seed))
            expected = distribution(probs, start, p_current, rule)
            assert np.array_equal(indices, expected[0])
            assert np.array_equal(weights, expected[1])
            likeliest = start + int(np.argmax(probs[start:]))
            weak_raises[players] += sum(1 for i in indices
                                        if i >= 0 and probs[i] < 0.7 and i != likeliest)
    assert weak_raises[2] == 0
    assert weak_raises[3] > 0 and weak_raises[4] > 0  # with more seats it bluffs


def test_a_larger_table_down_to_two_seats_keeps_the_table_rule() -> None:
    # B2: eliminated seats hold no cards; a 4-player game down to two seats still plays
    # NORMAL_RULE (the 4-player ladder's endgames), a table of two NORMAL_HEADS_UP
    v = seat_view(facing_card_9(4, 0), 1)
    bot = NormalBluffBot()
    assert bot.rule_for(v) is NORMAL_RULE
    assert bot.rule_for(replace(v, hand_sizes=(0, 2, 0, 3))) is NORMAL_RULE
    two = seat_view(facing_card_9(2, 0), 0)
    assert bot.rule_for(two) is NORMAL_HEADS_UP


def test_heads_up_normal_opens_with_its_own_card() -> None:
    # one card each: the only call it finds 0.7 likely is its own card, and it does not
    # bluff; with a third seat it sometimes opens with a bluff
    bot = NormalBluffBot()
    state = new_game(BluffRules(players=2, dealer=1))
    state = start_round(state, (tuple(parse_cards(["KS"])), tuple(parse_cards(["7H"])))).state
    for seed in range(6):
        indices, _ = bot.distribution(seat_view(state, 0), random.Random(seed))
        assert [ALL_CALLS[int(i)] for i in indices] == [parse_action("card K")]
    three = new_game(BluffRules(players=3, dealer=2))
    three = start_round(three, tuple(tuple(parse_cards([h])) for h in ("KS", "7H", "2C"))).state
    opened = {int(i) for s in range(12)
              for i in bot.distribution(seat_view(three, 0), random.Random(s))[0]}
    assert len(opened) > 1
