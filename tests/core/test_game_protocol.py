"""Both cores answer the same names (usotsuki.core.game): one generic driver plays either."""

from __future__ import annotations

import random
from typing import Any

import pytest

from usotsuki import bluff, liar
from usotsuki.bluff.deal import deal_hands
from usotsuki.cards import parse_cards
from usotsuki.core.errors import IllegalAction, UsotsukiError
from usotsuki.core.events import visible_to
from usotsuki.core.game import MAX_PLAYERS, MIN_PLAYERS


def drive(game: Any, state: Any, pick: Any, rng: random.Random, steps: int) -> Any:
    """Apply checked actions through the names both cores share, checking the answers."""
    for _ in range(steps):
        if state.is_over or state.to_move is None or getattr(state, "needs_deal", False):
            break
        action = pick(state, rng)
        text = game.format_action(action)
        step = game.apply(state, game.parse_action(text))
        assert game.push(state, action) == step.state
        for seat in (None, *range(state.players if game is bluff else state.rules.players)):
            seen = game.view(step.state, seat)
            assert (seen.hand is None) == (seat is None)
            assert isinstance(game.info_key(seen), str)
            for event in step.events:
                assert isinstance(event.to_json(), dict)
                visible_to(event, seat)
        state = step.state
    return state


def test_bluff_and_liar_share_one_interface() -> None:
    rng = random.Random(4)
    b = bluff.new_game(bluff.BluffRules(players=3))
    b = bluff.start_round(b, deal_hands(b, rng)).state
    b = drive(bluff, b, lambda s, r: r.choice(list(bluff.legal_actions(s))), rng, 30)
    assert b.round > 0 or b.history  # the drive got past a challenge
    hands, stock = liar.deal(liar.LiarRules(players=3), rng)
    s = liar.new_game(liar.LiarRules(players=3), hands, stock, 1)
    s = drive(liar, s, liar.random_action, rng, 60)
    assert s.doubts or s.is_over  # past a doubt at least


def test_constants_once() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 8)
    from usotsuki.bluff import rules as brules
    from usotsuki.liar import rules as lrules
    assert brules.MIN_PLAYERS is MIN_PLAYERS and lrules.MAX_PLAYERS is MAX_PLAYERS


def test_bluff_errors_carry_rule_and_action() -> None:
    state = bluff.start_round(bluff.new_game(bluff.BluffRules(players=2)),
                              [parse_cards(["2S"]), parse_cards(["3S"])]).state
    with pytest.raises(IllegalAction) as caught:
        bluff.apply(state, bluff.CHALLENGE)
    assert caught.value.rule == "B5" and caught.value.action == bluff.CHALLENGE
    state = bluff.apply(state, bluff.parse_action("pair 5")).state
    weaker = bluff.parse_action("card 7")
    with pytest.raises(UsotsukiError) as caught2:
        bluff.apply(state, weaker)
    assert caught2.value.rule == "B5" and caught2.value.action == weaker


def test_b8_call_cards_are_the_cards_that_bear_on_the_call() -> None:
    cards = parse_cards(["5S", "5H", "9C", "4H", "3H", "2H", "AH", "KD"])
    assert bluff.call_cards(bluff.parse_action("pair 5"), cards) == parse_cards(["5S", "5H"])
    sf = bluff.parse_action("straight-flush 5 H")
    assert bluff.call_cards(sf, cards) == parse_cards(["5H", "4H", "3H", "2H", "AH"])
    assert bluff.is_true(sf, (cards,))
    assert not bluff.is_true(bluff.parse_action("straight-flush 5 S"), (cards,))
    full = bluff.parse_action("full-house 5 9")
    assert bluff.call_cards(full, cards) == parse_cards(["5S", "5H", "9C"])
    assert not bluff.is_true(full, (cards,))
