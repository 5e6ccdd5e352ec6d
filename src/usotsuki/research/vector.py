"""Gymnasium vector environments over the batched engines: ``num_envs`` games per call.

:class:`BluffVectorEnv` (:class:`~usotsuki.research.batched.BatchedBluff`) and
:class:`LiarVectorEnv` (:class:`~usotsuki.research.batched_liar.BatchedLiar`) are
``gymnasium.vector.VectorEnv`` subclasses in self-play: each step the observation of each
game is that of its seat to move (the codec's tensor, as ``usotsuki/Bluff-v0`` and
``usotsuki/Liar-v0`` give their seat; Bluff's as int8, a ``MultiBinary`` space, the
Liar Game's as counts, a uint8 ``Box`` (wider with a turn limit above 255) whose
``high`` is each value's divisor: ``obs / env.engine.divisors`` is the codec's float32
tensor), and the action is that seat's. So one policy plays every seat, as the
single-seat environment's bots play the others.

- ``infos["action_mask"]`` (num_envs, num_actions): the legal ids; ``infos["seat"]``: the
  seat each observation belongs to.
- The reward is the acting seat's, by place when its action ends the game (+1 first to
  -1 last, as the single environments give it); ``infos["rewards"]`` (num_envs, players)
  holds every seat's rewards of that step, for a learner crediting each seat.
- Autoreset is Gymnasium's default, ``NEXT_STEP``: the step that ends a game returns the
  acting seat's final observation with ``terminated``; the next step ignores that game's
  action and returns its new game's first observation.
- An illegal action raises ``ValueError`` (mask with ``action_mask``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from usotsuki.bluff import BluffRules
from usotsuki.liar import LiarRules
from usotsuki.research.batched import BatchedBluff
from usotsuki.research.batched_liar import BatchedLiar

Obs = npt.NDArray[np.int8] | npt.NDArray[np.unsignedinteger]
Engine = BatchedBluff | BatchedLiar


class BatchedVectorEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], Any]):
    """The vector environment of an engine; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, engine: Engine) -> None:
        engine.autoreset = False  # games restart here, a step after they end
        self.engine = engine
        self.num_envs = engine.n
        size = engine.observation_size
        # Bluff's observation is all 0/1 (int8, Gymnasium's MultiBinary); the Liar Game's
        # holds counts, each at most its divisor (52 for cards, the turn limit for turns)
        self.single_observation_space: spaces.Space[Any] = (
            spaces.MultiBinary(size) if isinstance(engine, BatchedBluff)
            else spaces.Box(0, engine.divisors.astype(engine.observation_dtype), (size,),
                            engine.observation_dtype))
        self.single_action_space = spaces.Discrete(engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._restart = np.zeros(self.num_envs, dtype=bool)

    def _infos(self, seats: npt.NDArray[np.int64],
               rewards: npt.NDArray[np.float64]) -> dict[str, Any]:
        return {"action_mask": self.engine.legal_mask(), "seat": seats.copy(),
                "rewards": rewards.copy()}

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """New games in every slot (``seed``: the engine's generator starts again)."""
        if seed is not None:
            first = seed if isinstance(seed, int) else seed[0]
            self.engine.reseed(first)
        self.engine.reset()
        self._restart[:] = False
        seats = self.engine.to_move
        return self.engine.observe(), self._infos(seats, np.zeros_like(self.engine.rewards))

    def step(self, actions: npt.NDArray[np.int64]
             ) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                        npt.NDArray[np.bool_], dict[str, Any]]:
        engine = self.engine
        actors = engine.to_move.copy()
        ended = engine.step(np.asarray(actions, dtype=np.int64))  # done games act not
        rewards = engine.rewards.copy()
        obs = engine.observe(np.where(ended, actors, engine.to_move))
        restart = self._restart
        if restart.any():  # NEXT_STEP: the games that ended last step start again
            engine.reset(restart)
            obs[restart] = engine.observe()[restart]
        seats = np.where(ended, actors, engine.to_move)
        reward = rewards[np.arange(self.num_envs), actors]
        self._restart = ended.copy()
        truncated = np.zeros(self.num_envs, dtype=bool)
        return obs, reward, ended, truncated, self._infos(seats, rewards)


class BluffVectorEnv(BatchedVectorEnv):
    """``num_envs`` Bluff games (options as :class:`~usotsuki.bluff.BluffRules`)."""

    def __init__(self, num_envs: int, seed: int | None = None, **options: Any) -> None:
        super().__init__(BatchedBluff(BluffRules(**options), num_envs, seed=seed))


class LiarVectorEnv(BatchedVectorEnv):
    """``num_envs`` Liar Games (options as :class:`~usotsuki.liar.LiarRules`), or with O7
    ``classes`` matches of ``games`` games, each an episode (as ``usotsuki/Liar-v0``'s
    ``games``)."""

    def __init__(self, num_envs: int, seed: int | None = None, games: int = 1,
                 **options: Any) -> None:
        options.setdefault("players", 4)
        super().__init__(BatchedLiar(LiarRules(**options), num_envs, seed=seed, games=games))
