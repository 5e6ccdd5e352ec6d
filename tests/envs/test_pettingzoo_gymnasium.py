"""PettingZoo's and Gymnasium's official API tests on both games (small games, few cycles)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import usotsuki.envs  # noqa: E402,F401  (registers the Gymnasium environments)
from usotsuki.envs import bluff_v0, liar_v0  # noqa: E402

BLUFF = {"players": 3, "max_cards": 2, "ranks": 6}
LIAR = {"players": 3, "hand_size": 4, "multi": True, "turn_limit": 60}
LIAR_ALL = {"players": 4, "hand_size": 3, "multi": True, "revolution": True, "eight_cut": True,
            "jack_back": True, "six_up": True, "binding": True, "classes": True, "games": 2,
            "turn_limit": 40}


@pytest.mark.parametrize(("module", "options"), [
    (bluff_v0, BLUFF), (bluff_v0, {}), (liar_v0, LIAR), (liar_v0, LIAR_ALL),
])
def test_pettingzoo_api_and_seed(module: object, options: dict[str, object]) -> None:
    make = module.env  # type: ignore[attr-defined]
    api_test(make(**options), num_cycles=100)
    seed_test(lambda: make(**options), num_cycles=50)


def _play_out(env: object, seed: int) -> dict[str, float]:
    env.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, info = env.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        assert "view" in info and info["view"]["seat"] == int(agent.split("_")[1])
        action = None if terminated or truncated else \
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)  # type: ignore[attr-defined]
    return totals


@pytest.mark.parametrize(("module", "options"), [(bluff_v0, BLUFF), (liar_v0, LIAR)])
def test_rewards_by_place_sum_to_zero_and_span_one_to_minus_one(
        module: object, options: dict[str, object]) -> None:
    totals = _play_out(module.env(**options), seed=5)  # type: ignore[attr-defined]
    assert abs(sum(totals.values())) < 1e-9
    assert max(totals.values()) == 1.0 or len(set(totals.values())) < 3  # L11 ties share


def test_illegal_action_ends_the_game_with_minus_one_for_its_agent() -> None:
    env = bluff_v0.env(**BLUFF)
    env.reset(seed=1)
    agent = env.agent_selection
    challenge = env.action_space(agent).n - 1  # B5: nothing to challenge at a round's start
    env.step(challenge)
    assert env.rewards[agent] == -1 and all(env.terminations.values())


@pytest.mark.parametrize(("env_id", "options"), [
    ("usotsuki/Bluff-v0", {**BLUFF, "opponents": ("normal", "easy")}),
    ("usotsuki/Liar-v0", {**LIAR, "opponents": ("random", "sensible")}),
])
def test_gymnasium_check_env(env_id: str, options: dict[str, object]) -> None:
    env = gymnasium.make(env_id, **options)
    check_env(env.unwrapped)
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()
    done, reward = False, 0.0
    rng = np.random.default_rng(0)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert -1.0 <= reward <= 1.0 and "illegal" not in info


def test_gymnasium_refuses_unknown_bots_and_wrong_counts() -> None:
    with pytest.raises(ValueError, match="unknown bluff bot"):
        gymnasium.make("usotsuki/Bluff-v0", players=2, opponents=("grandmaster",))
    with pytest.raises(ValueError, match="opponents"):
        gymnasium.make("usotsuki/Bluff-v0", players=4, opponents=("easy",))
