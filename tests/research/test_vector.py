"""The Gymnasium vector environments over the batched engines: spaces, masks, self-play
rewards and Gymnasium's NEXT_STEP autoreset."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from usotsuki.research.vector import BatchedVectorEnv, BluffVectorEnv, LiarVectorEnv


def _masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    keys = np.where(mask, rng.random(mask.shape), -1.0)
    return np.argmax(keys, axis=1)


@pytest.mark.parametrize("env", [
    lambda: BluffVectorEnv(16, seed=1, players=3, max_cards=2, ranks=5),
    lambda: LiarVectorEnv(16, seed=1, players=3, hand_size=3, jack_back=True),
    lambda: LiarVectorEnv(16, seed=1, players=3, hand_size=5, multi=True, revolution=True),
    lambda: LiarVectorEnv(16, seed=1, players=4, hand_size=3, classes=True, games=2),
])
def test_self_play_episodes(env: object) -> None:
    venv: BatchedVectorEnv = env()  # type: ignore[operator]
    rng = np.random.default_rng(0)
    obs, infos = venv.reset(seed=4)
    assert obs.shape == (16, venv.single_observation_space.shape[0])
    assert (infos["seat"] == venv.engine.to_move).all()
    restart = np.zeros(16, dtype=bool)
    finished = 0
    for _ in range(400):
        assert venv.observation_space.contains(obs)
        mask = infos["action_mask"]
        assert mask[~restart].any(axis=1).all()
        actions = _masked_random(mask, rng)
        seats = infos["seat"]
        obs, reward, terminated, truncated, infos = venv.step(actions)
        assert not truncated.any()
        # the acting seat's reward; every seat's, zero-sum, where a game ended
        assert (reward == infos["rewards"][np.arange(16), seats]).all()
        assert np.allclose(infos["rewards"][terminated].sum(axis=1), 0.0)
        assert not infos["rewards"][~terminated].any()
        best = np.abs(infos["rewards"][terminated]).max(axis=1)
        if getattr(venv.engine, "games", 1) == 1:  # a match's are its games' averaged
            assert (best == 1.0).all()
        assert (best <= 1.0).all()
        # NEXT_STEP: a game ended last step starts again now, its action ignored
        assert not (terminated & restart).any()
        restart = terminated
        finished += int(terminated.sum())
    assert finished > 0


def test_bluff_observations_are_multibinary() -> None:
    venv = BluffVectorEnv(4, seed=0, players=2, ranks=4, max_cards=2)
    obs, _ = venv.reset()
    assert isinstance(venv.single_observation_space, spaces.MultiBinary)
    assert obs.dtype == np.int8 and venv.observation_space.contains(obs)


def test_liar_observations_are_counts_of_the_codec_tensor() -> None:
    """The Liar Game's observations are uint8 counts in their Box; divided by the
    engine's divisors they are the codec's float32 tensor of the seat to move."""
    venv = LiarVectorEnv(4, seed=0, players=3, hand_size=4, turn_limit=30)
    obs, infos = venv.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(20):
        assert obs.dtype == np.uint8 and venv.observation_space.contains(obs)
        engine = venv.engine
        tensors = engine.to_codec(obs)
        assert tensors.dtype == np.float32 and tensors.max() <= 1.0
        turns = tensors[:, engine.codec.offsets["turns"]]
        assert np.array_equal(turns, (engine.turns / np.float32(30)).astype(np.float32))
        obs, _r, _t, _tr, infos = venv.step(_masked_random(infos["action_mask"], rng))


def test_illegal_action_raises() -> None:
    venv = LiarVectorEnv(2, seed=0, players=3)
    venv.reset()
    with pytest.raises(ValueError, match="not legal"):
        venv.step(np.array([782, 782]))  # accept: only after a play that empties a hand


@pytest.mark.parametrize("env", [
    lambda: BluffVectorEnv(8, seed=1, players=3, max_cards=2, ranks=5),
    lambda: LiarVectorEnv(8, seed=1, players=3, hand_size=4),
])
def test_reset_with_a_seed_replays_the_same_games(env: object) -> None:
    """``reset(seed=s)`` starts every source of chance again (the Liar Game's deals and
    flushes come from a stream seeded from the engine's generator): the same actions
    then give the same observations, whatever was played before."""
    def run(venv: BatchedVectorEnv) -> list[np.ndarray]:
        obs, infos = venv.reset(seed=9)
        rng, seen = np.random.default_rng(3), [obs]
        for _ in range(60):
            obs, *_, infos = venv.step(_masked_random(infos["action_mask"], rng))
            seen.append(obs)
        return seen
    venv: BatchedVectorEnv = env()  # type: ignore[operator]
    first = run(venv)
    assert all((a == b).all() for a, b in zip(first, run(venv), strict=True))
