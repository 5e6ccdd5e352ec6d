"""The OpenSpiel Bluff game: OpenSpiel's own consistency checks, CFR and exploitability."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import usotsuki.envs.openspiel  # noqa: E402,F401  (registers the games)
from usotsuki import bluff  # noqa: E402

ROUND4 = {"round": True, "ranks": 4, "drop_impossible": True}


@pytest.mark.parametrize("params", [
    {}, {"players": 3, "max_cards": 2, "ranks": 5}, {"players": 4, "max_cards": 3, "ranks": 6},
    {"round": True, "ranks": 6, "hand0": 2, "hand1": 3}, ROUND4,
])
def test_random_sim_consistency(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_usotsuki_bluff", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_round_is_two_player_zero_sum_with_the_round_loser_at_minus_one() -> None:
    game = pyspiel.load_game("python_usotsuki_bluff", {"round": True, "ranks": 4})
    assert game.num_players() == 2 and game.num_distinct_actions() == 35  # 34 calls + challenge
    state = game.new_initial_state()
    state.apply_action(3)  # seat 0: the 4th card of the J..A deck, JC
    state.apply_action(0)  # seat 1: JS
    assert state.current_player() == 1  # B4: left of dealer 0
    pair_j = bluff.parse_action("pair J")
    card_a = bluff.parse_action("card A")
    codec = game.setup.codec
    state.apply_action(codec.action_id(card_a))
    state.apply_action(codec.action_id(pair_j))
    state.apply_action(codec.challenge_id)  # pair J is true: the challenger (seat 1) loses
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_chance_deals_each_set_of_hands_once_with_the_right_probability() -> None:
    game = pyspiel.load_game("python_usotsuki_bluff",
                             {"round": True, "ranks": 2, "hand0": 2, "hand1": 1})
    total: dict[tuple[tuple[int, ...], ...], float] = {}

    def walk(state: object, p: float) -> None:
        assert hasattr(state, "is_chance_node")
        if not state.is_chance_node():
            hands = tuple(tuple(h) for h in state.core.hands)
            assert hands not in total  # one history per set of hands
            total[hands] = p
            return
        for outcome, q in state.chance_outcomes():
            walk(state.child(outcome), p * q)

    walk(game.new_initial_state(), 1.0)
    assert len(total) == 28 * 6  # C(8, 2) hands for seat 0, then 6 cards for seat 1
    assert all(abs(p - 1 / (28 * 6)) < 1e-12 for p in total.values())


def test_information_state_is_the_view_and_hides_the_other_hand() -> None:
    game = pyspiel.load_game("python_usotsuki_bluff", {"players": 3, "max_cards": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node()
    for seat in range(3):
        text = state.information_state_string(seat)
        own = " ".join(str(c) for c in state.core.hands[seat])
        assert f"hand {own} " in text
        other = state.core.hands[(seat + 1) % 3][0]
        assert str(other) not in text.split("|")[0].split("hand ")[1]
        tensor = np.array(state.information_state_tensor(seat))
        assert tensor.shape == (game.information_state_tensor_size(),)
        assert tensor[:52].sum() == 1  # one card in hand, no other seat's


def test_pickle_and_serialization_round_trip() -> None:
    game = pyspiel.load_game("python_usotsuki_bluff", ROUND4)
    state = game.new_initial_state()
    for action in (5, 7, 0, 4):
        state.apply_action(action)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    copy_game, copy_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(copy_state) == str(state)


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game("python_usotsuki_bluff", ROUND4)
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    before = str(state)
    with pytest.raises(Exception, match="illegal action"):
        state.apply_action(game.setup.codec.challenge_id)  # B5: nothing to challenge yet
    assert str(state) == before


def test_bad_parameters_are_refused_clearly() -> None:
    with pytest.raises(Exception, match="players must be 2"):
        pyspiel.load_game("python_usotsuki_bluff", {"round": True, "players": 3})
    with pytest.raises(Exception, match="B13"):
        pyspiel.load_game("python_usotsuki_bluff", {"ranks": 1})


def test_cfr_mccfr_and_exploitability_run_unchanged_on_one_round() -> None:
    # ranks 2 (8 cards): best responses through a Python game visit every history, and
    # ranks 3 or 4 take tens of seconds to minutes (docs/research.md gives the figures)
    from open_spiel.python.algorithms import exploitability, outcome_sampling_mccfr

    game = pyspiel.load_game("python_usotsuki_bluff", {**ROUND4, "ranks": 2})
    solver = pyspiel.CFRPlusSolver(game)
    uniform = pyspiel.exploitability(game, solver.average_policy())
    for _ in range(2):
        solver.evaluate_and_update_policy()
    value = pyspiel.exploitability(game, solver.average_policy())
    assert 0 <= value < uniform <= 2  # CFR+ moves away from uniform play
    mccfr = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):
        mccfr.iteration()
    sampled = exploitability.exploitability(game, mccfr.average_policy())
    assert 0 <= sampled <= 2


def test_no_leak_other_hands_do_not_change_a_seats_information() -> None:
    game = pyspiel.load_game("python_usotsuki_bluff", {"players": 3, "max_cards": 2})
    seen = []
    for third in (5, 6):  # seat 2's card differs, seats 0 and 1 hold the same cards
        state = game.new_initial_state()
        for card in (0, 1, third):
            state.apply_action(card)
        seen.append((state.information_state_string(0), state.information_state_tensor(0),
                     state.observation_string(1), state.observation_tensor(1)))
    assert seen[0] == seen[1]


def _first_caller_and_sizes(game: object) -> tuple[int, tuple[int, ...]]:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state.current_player(), tuple(len(hand) for hand in state.core.hands)


def test_round_hands_are_by_seat_and_seat_1_calls_first_by_default() -> None:
    """docs/research.md: with the default dealer 0, `hand0=1, hand1=2` is the solver's
    r4-2v1 (first caller's hand first); the solver's own loader uses dealer 1."""
    from usotsuki.research.round import RoundSpec
    from usotsuki.research.spiel import load

    game = pyspiel.load_game("python_usotsuki_bluff",
                             {"round": True, "ranks": 4, "hand0": 1, "hand1": 2})
    first, sizes = _first_caller_and_sizes(game)
    assert (first, sizes) == (1, (1, 2))
    assert RoundSpec(4, (sizes[first], sizes[1 - first])).name == "r4-2v1"
    for name, params in (("r4-1v2", {"hand0": 2, "hand1": 1}),
                         ("r4-1v2", {"dealer": 1, "hand0": 1, "hand1": 2})):
        first, sizes = _first_caller_and_sizes(
            pyspiel.load_game("python_usotsuki_bluff", {"round": True, "ranks": 4, **params}))
        assert RoundSpec(4, (sizes[first], sizes[1 - first])).name == name
    first, sizes = _first_caller_and_sizes(load(RoundSpec(4, (2, 1)), envs=True))
    assert (first, sizes[first]) == (0, 2)
