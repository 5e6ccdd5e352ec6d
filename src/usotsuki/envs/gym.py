"""Single-agent Gymnasium environments: one seat against bots of chosen levels.

``gymnasium.make("usotsuki/Bluff-v0", seat=0, opponents=("normal", "normal", "normal"),
**options)`` and ``"usotsuki/Liar-v0"`` (registered when :mod:`usotsuki.envs` is imported).
``opponents`` names a bot of the registry (:func:`usotsuki.bots.make_bot`) for every other
seat, in seat order; the options are the game's (``players`` is their count plus one).

The observation is the seat's vector (:mod:`usotsuki.envs.bluff_codec`,
:mod:`usotsuki.envs.liar_codec`); ``info`` holds ``action_mask`` and the readable
``view``, and :meth:`CardGameGymEnv.action_masks` returns the mask (the name
sb3-contrib's MaskablePPO calls). The reward comes at the end, by place (+1 first to -1
last). An illegal action ends the episode with ``illegal_reward`` (-1) and
``info["illegal"]``, as PettingZoo's TerminateIllegalWrapper does. The bots act with a
generator seeded from ``reset(seed=...)``, so an episode replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from usotsuki.envs.tables import BluffTable, LiarTable, bots_for, make_table


class CardGameGymEnv(gymnasium.Env[npt.NDArray[np.float32], Any]):
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str, seat: int = 0, opponents: Sequence[str] | None = None,
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 **options: Any) -> None:
        if opponents is None:
            opponents = ("normal",) * (int(options.get("players", 4)) - 1)
        opponents = tuple(opponents)
        players = options.setdefault("players", len(opponents) + 1)
        if players != len(opponents) + 1:
            raise ValueError(f"{players} players need {players - 1} opponents, "
                             f"not {len(opponents)}")
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.table: BluffTable | LiarTable = make_table(game, options)
        self.seat = seat
        self.bots = bots_for(game, opponents)  # raises ValueError for an unknown name
        self.illegal_reward = illegal_reward
        self.observation_space = spaces.Box(0.0, 1.0, (self.table.observation_size,),
                                            np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)
        self._rng = random.Random(0)
        self._over = True

    def _bot(self, seat: int) -> Any:
        return self.bots[seat - 1 if seat > self.seat else seat]

    def _play_bots(self) -> None:
        """Let the bots act until it is this seat's turn or the game is over."""
        while self.table.to_move is not None and self.table.to_move != self.seat:
            for action_id in self.table.bot_action(self._bot(self.table.to_move), self._rng):
                self.table.apply(action_id)

    def action_masks(self) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.table.num_actions, np.int8)
        if self.table.to_move == self.seat:
            mask[self.table.legal_ids()] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "view": self.table.view_json(self.seat)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        self.table.reset(self._rng)
        self._play_bots()
        self._over = self.table.to_move is None
        return self.table.observation(self.seat), self._info()

    def step(self, action: int) -> tuple[npt.NDArray[np.float32], float, bool, bool,
                                         dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        if int(action) not in self.table.legal_ids():
            self._over = True
            info = self._info() | {"illegal": True}
            return self.table.observation(self.seat), self.illegal_reward, True, False, info
        self.table.apply(int(action))
        self._play_bots()
        over = self.table.to_move is None
        self._over = over
        reward = self.table.returns()[self.seat] if over else 0.0
        return self.table.observation(self.seat), reward, over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.table.view_json(self.seat))
        return None


class BluffEnv(CardGameGymEnv):
    """``usotsuki/Bluff-v0``: Bluff's options (players, max_cards, dealer, ranks,
    drop_impossible); opponents from easy, normal, hard, expert, random, cautious."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("bluff", **kwargs)


class LiarEnv(CardGameGymEnv):
    """``usotsuki/Liar-v0``: the Liar Game's options (hand_size, ..., the house rules,
    games); opponents from random, sensible, easy, normal, hard, expert."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("liar", **kwargs)


def register() -> None:
    """Register ``usotsuki/Bluff-v0`` and ``usotsuki/Liar-v0`` with Gymnasium (once)."""
    for env_id, entry in (("usotsuki/Bluff-v0", "usotsuki.envs.gym:BluffEnv"),
                          ("usotsuki/Liar-v0", "usotsuki.envs.gym:LiarEnv")):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry)
