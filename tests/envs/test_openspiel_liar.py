"""The OpenSpiel Liar Game: OpenSpiel's consistency check, flushes as chance, multi-card plays."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import usotsuki.envs.openspiel  # noqa: E402,F401  (registers the games)
from usotsuki.envs import liar_codec  # noqa: E402

SMALL = {"players": 2, "hand_size": 3, "turn_limit": 40}
HOUSE = {"players": 3, "hand_size": 4, "turn_limit": 60, "multi": True, "revolution": True,
         "eight_cut": True, "jack_back": True, "six_up": True, "binding": True}


@pytest.mark.parametrize("params", [
    SMALL, HOUSE, {"players": 3, "hand_size": 3, "classes": True, "games": 2, "turn_limit": 30},
    {"players": 6, "final_doubt": False, "turn_limit": 40},
])
def test_random_sim_consistency(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_usotsuki_liar", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _deal(state: object, rng: np.random.Generator) -> None:
    while state.is_chance_node():  # type: ignore[attr-defined]
        actions, probs = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
        state.apply_action(int(rng.choice(actions, p=probs)))  # type: ignore[attr-defined]


def test_flush_order_is_chosen_by_chance_and_goes_under_the_stock() -> None:
    game = pyspiel.load_game("python_usotsuki_liar", SMALL)
    rng = np.random.default_rng(3)
    for _ in range(20):
        state = game.new_initial_state()
        _deal(state, rng)
        while not state.is_terminal():
            if state.is_chance_node():
                node = state._node
                if node.pending is not None:  # L8: one node per card but the last
                    size = node.shuffle_size
                    outcomes = state.chance_outcomes()
                    assert len(outcomes) == size - len(node.order)
                    field = [c for play in node.core.field for c in play.cards]
                    stock_before = len(node.core.stock)
                    while state.is_chance_node():
                        state.apply_action(state.chance_outcomes()[-1][0])  # reverse order
                    core = state.core
                    order = list(reversed(field))
                    if core.doubts and core.doubts[-1].drawn and len(core.stock) < \
                            stock_before + len(field):
                        continue  # the drawer took some of the flushed cards back (L9)
                    assert list(core.stock[-len(field):]) == order
                    return
                _deal(state, rng)
            else:
                legal = state.legal_actions()
                state.apply_action(int(rng.choice(legal)))
    pytest.fail("no flush of two or more cards in 20 games")


def test_multi_card_play_is_made_card_by_card_lowest_first() -> None:
    game = pyspiel.load_game("python_usotsuki_liar", {**SMALL, "multi": True})
    state = game.new_initial_state()
    _deal(state, np.random.default_rng(1))
    seat = state.current_player()
    hand = sorted(state.core.hands[seat])
    legal = state.legal_actions()
    assert liar_codec.PASS_ID not in legal  # L6: a leader must play
    state.apply_action(liar_codec.SELECT_BASE + hand[0])
    assert state.current_player() == seat  # the same player goes on
    legal = state.legal_actions()
    assert all(a >= liar_codec.SELECT_BASE or a // 13 > hand[0] for a in legal)
    assert liar_codec.SELECT_BASE + hand[0] not in legal
    state.apply_action(liar_codec.PLAY_BASE + hand[1] * 13 + 5)  # the 2nd card, as 8
    play = state.core.field[-1]
    assert play.cards == (hand[0], hand[1]) and play.rate == 5
    assert state.current_player() == 1 - seat


def test_observation_tensor_hides_other_hands() -> None:
    game = pyspiel.load_game("python_usotsuki_liar", SMALL)
    state = game.new_initial_state()
    _deal(state, np.random.default_rng(2))
    for seat in range(2):
        obs = np.array(state.observation_tensor(seat))
        assert obs.shape == (game.observation_tensor_size(),)
        assert set(np.flatnonzero(obs[:52])) == set(state.core.hands[seat])
        assert str(state.core.hands[1 - seat][0]) not in state.information_state_string(seat) \
            .split('"hand":')[1].split("]")[0]


def test_turn_limit_is_required_and_rules_are_checked() -> None:
    with pytest.raises(Exception, match="turn_limit"):
        pyspiel.load_game("python_usotsuki_liar", {"turn_limit": 0})
    with pytest.raises(Exception, match="O2 needs O1"):
        pyspiel.load_game("python_usotsuki_liar", {"revolution": True})
    with pytest.raises(Exception, match="classes"):
        pyspiel.load_game("python_usotsuki_liar", {"games": 2})


def test_no_leak_other_hands_do_not_change_a_seats_information() -> None:
    game = pyspiel.load_game("python_usotsuki_liar", SMALL)
    seen = []
    for third in (40, 41):  # seat 1's third card differs; the other one is in the stock
        state = game.new_initial_state()
        deal = [0, 1, 2, 3, 4, third]  # seat 0: 2S 2H 2D; seat 1: 2C 3S and one
        deal += [c for c in range(52) if c not in deal]
        for card in deal:
            state.apply_action(card)
        assert sorted(state.core.hands[1])[-1] == third
        seen.append((state.information_state_string(0), state.observation_tensor(0)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize(("name", "params"), [
    ("python_usotsuki_bluff", {"players": 3, "max_cards": 2, "ranks": 5}),
    ("python_usotsuki_liar", {**HOUSE, "turn_limit": 30}),
])
def test_openspiel_rl_environment_plays_both_games(name: str, params: dict[str, object]) -> None:
    # rl_environment is what OpenSpiel's NFSP, DQN and policy-gradient agents train through
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(pyspiel.load_game(name, params))
    step = env.reset()
    rng = np.random.default_rng(0)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert abs(sum(step.rewards)) < 1e-9 and max(step.rewards) <= 1
