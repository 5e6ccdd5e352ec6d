"""The batched engine agrees with the scalar core on every step of every game (issue 14.5).

Games are played in lockstep by :class:`BatchedBluff` (random legal actions, or actions
drawn from a random policy) while each one is followed through the core's checked
``apply``: the same mover, the same legal actions (B5, B7, B10, B13), the same truth of
the challenged call (B8), loser (B9), eliminations (B2, B11), next first caller (B4),
standings (B12), rewards by place (:func:`~usotsuki.envs.deals.place_returns`) and every
seat's observation (the :class:`~usotsuki.envs.bluff_codec.BluffCodec` tensor of the
core's view).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from usotsuki.bluff import (
    CHALLENGE,
    BluffRules,
    Call,
    Challenge,
    apply,
    legal_actions,
    new_game,
    start_round,
    view,
)
from usotsuki.bluff.state import BluffState
from usotsuki.cards import DECK
from usotsuki.envs.deals import place_returns
from usotsuki.research.batched import BatchedBluff


@st.composite
def rules(draw: st.DrawFn) -> BluffRules:
    players = draw(st.integers(2, 8))
    ranks = draw(st.integers(2, 13))
    max_cards = draw(st.integers(1, min(5, 4 * ranks // players)))
    dealer = draw(st.integers(0, players - 1))
    return BluffRules(players=players, max_cards=max_cards, dealer=dealer, ranks=ranks)


def _hands(engine: BatchedBluff, game: int) -> list[tuple[object, ...]]:
    return [tuple(DECK[engine.first_card + c]
                  for c in np.flatnonzero(engine.owner[game] == s))
            for s in range(engine.players)]


def _check_observations(engine: BatchedBluff, cores: list[BluffState]) -> None:
    obs = engine.observe()
    for seat in range(engine.players):
        of_seat = engine.observe(np.full(engine.n, seat))
        for i, state in enumerate(cores):
            expected = engine.codec.observation(view(state, seat))
            np.testing.assert_array_equal(of_seat[i], expected)
            if state.to_move == seat:
                np.testing.assert_array_equal(obs[i], expected)


def play_against_core(engine: BatchedBluff, policy: str) -> int:
    """Play every game to its end, checking each step against the core; return steps."""
    cores = [start_round(new_game(engine.rules), _hands(engine, i)).state
             for i in range(engine.n)]
    position = {c: k for k, c in enumerate(engine.calls)}
    steps = 0
    while not engine.done.all():
        _check_observations(engine, cores)
        mask = engine.legal_mask()
        for i, state in enumerate(cores):
            if engine.done[i]:
                assert state.is_over
                continue
            assert engine.to_move[i] == state.to_move
            legal = legal_actions(state)
            expected = [position[a] if isinstance(a, Call) else engine.K
                        for a in legal]
            assert np.flatnonzero(mask[i]).tolist() == expected
        if policy == "random":
            actions = engine.random_actions()
        else:
            actions = engine.sample(engine.rng.random((engine.n, engine.K + 1)) ** 4)
        was_done = engine.done.copy()
        engine.step(actions)
        steps += 1
        for i in np.flatnonzero(~was_done):
            a = int(actions[i])
            action = CHALLENGE if a == engine.K else engine.calls[a]
            step = apply(cores[i], action)
            state = step.state
            if isinstance(action, Challenge):
                result = state.results[-1]
                assert engine.last_loser[i] == result.loser
                assert bool(engine.active[i, result.loser]) == (not result.eliminated)
                if not state.is_over:
                    state = start_round(state, _hands(engine, i)).state
            assert engine.done[i] == state.is_over
            standings = state.standings
            expected_rewards = [0.0] * engine.players if standings is None else \
                place_returns(standings, engine.players)
            assert engine.rewards[i].tolist() == pytest.approx(expected_rewards)
            assert tuple(engine.losses[i][np.array(state.active)]) == \
                tuple(x for x, on in zip(state.losses, state.active, strict=True) if on)
            cores[i] = state
    _check_observations(engine, cores)
    for i, state in enumerate(cores):
        assert engine.standings(i) == state.standings
    return steps


@settings(max_examples=20)
@given(rules(), st.integers(0, 2**32 - 1), st.sampled_from(["random", "policy"]))
def test_batched_games_replay_through_the_core(r: BluffRules, seed: int, policy: str) -> None:
    engine = BatchedBluff(r, n=6, seed=seed)
    assert play_against_core(engine, policy) > 0


def test_short_deck_heads_up_many_games() -> None:
    engine = BatchedBluff(BluffRules(players=2, max_cards=2, ranks=4), n=64, seed=1)
    play_against_core(engine, "random")
    assert engine.games_finished == 64


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    engine = BatchedBluff(BluffRules(players=3), n=2, seed=3)
    before = engine.last.copy(), engine.to_move.copy()
    with pytest.raises(ValueError, match="not legal"):
        engine.step(np.array([engine.K, 0]))  # B5: no challenge before the first call
    assert (engine.last == before[0]).all() and (engine.to_move == before[1]).all()


def test_autoreset_keeps_every_game_playing() -> None:
    engine = BatchedBluff(BluffRules(players=4, max_cards=1, ranks=6), n=32, seed=5,
                          autoreset=True)
    for _ in range(200):
        engine.step(engine.random_actions())
    assert engine.decisions == 32 * 200
    assert engine.games_finished > 0 and not engine.done.any()


def test_actions_of_another_shape_are_refused() -> None:
    engine = BatchedBluff(BluffRules(players=2), n=3, seed=0)
    for actions in (np.zeros(2, dtype=np.int64), np.zeros((3, 1), dtype=np.int64)):
        with pytest.raises(ValueError, match="one action per game"):
            engine.step(actions)
    assert engine.decisions == 0


def test_observations_are_int8_zeros_and_ones() -> None:
    engine = BatchedBluff(BluffRules(players=3, max_cards=2, ranks=5), n=8, seed=2)
    for _ in range(30):
        obs = engine.observe()
        assert obs.dtype == np.int8 and set(np.unique(obs)) <= {0, 1}
        engine.step(engine.random_actions())


def test_logged_rounds_replay_through_the_core() -> None:
    """``log=True``: each game's rounds, as dealt and played, replay through the core to
    the engine's standings."""
    engine = BatchedBluff(BluffRules(players=3, max_cards=2, ranks=5), n=8, seed=7, log=True)
    while not engine.done.all():
        engine.step(engine.random_actions())
    for i in range(engine.n):
        state = new_game(engine.rules)
        for rnd in engine.logs[i]:
            state = start_round(state, rnd.hands).state
            for action in rnd.actions:
                state = apply(state, action).state
        assert state.is_over and state.standings == engine.standings(i)
