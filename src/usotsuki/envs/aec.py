"""The PettingZoo AEC environment both games share (``bluff_v0``, ``liar_v0``).

Agents ``player_0`` .. ``player_{n-1}`` are the seats. ``observe(agent)`` gives
``{"observation": float32 vector, "action_mask": int8 vector}`` (the encodings of
:mod:`usotsuki.envs.bluff_codec` and :mod:`usotsuki.envs.liar_codec`; the mask is all
zeros for an agent not on turn, as in PettingZoo's classic games) and ``infos[agent]``
holds the seat's readable view (``{"view": view.to_json()}``). Rewards come at the end, by
place: +1 for first to -1 for last in equal steps (shared places share the mean). Deals and
the Liar Game's flush seed come from the generator that ``reset(seed=...)`` seeds.
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from usotsuki.envs.tables import BluffTable, LiarTable, make_table


class CardGameEnv(AECEnv):  # type: ignore[misc]
    """A seat per agent over a :class:`~usotsuki.envs.tables.Table`."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "usotsuki",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.table: BluffTable | LiarTable = make_table(game, options)
        n = self.table.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agents = self.possible_agents[:]
        box = spaces.Box(0.0, 1.0, (self.table.observation_size,), np.float32)
        mask = spaces.Box(0, 1, (self.table.num_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.num_actions)
                              for a in self.possible_agents}
        self._rng = random.Random(secrets.randbits(64))
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat(agent)
        mask = np.zeros(self.table.num_actions, np.int8)
        if seat == self.table.to_move:
            mask[self.table.legal_ids()] = 1
        return {"observation": self.table.observation(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._start()

    def _start(self) -> None:
        self.table.reset(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select()

    def _select(self) -> None:
        seat = self.table.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        self.infos = {a: {"view": self.table.view_json(self._seat(a))} for a in self.agents}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is on turn and must act (None is only for agents "
                             "that are done)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.table.apply(int(action))  # raises ValueError for an illegal id, changing nothing
        if self.table.to_move is None:  # over: rewards by place, everyone is done
            for agent_name, value in zip(self.possible_agents, self.table.returns(),
                                         strict=True):
                self.rewards[agent_name] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self._seat(self.agent_selection)
        return f"{self.agent_selection}: " + json.dumps(self.table.view_json(seat))

    def close(self) -> None:
        pass


def make_env(raw: CardGameEnv) -> AECEnv:
    """PettingZoo's classic stack: an illegal action ends the game with -1 for its agent;
    actions out of bounds and calls out of order are caught."""
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
