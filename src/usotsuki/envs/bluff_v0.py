"""Bluff (RULES.md Part 1) as a PettingZoo AEC environment.

``env(players=4, max_cards=5, dealer=0, ranks=13, drop_impossible=False,
render_mode=None)``; ``raw_env`` without PettingZoo's wrappers. The observation and the
action ids are :mod:`usotsuki.envs.bluff_codec`'s; see :mod:`usotsuki.envs.aec`.

Version history: v0, the first.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from usotsuki.envs.aec import CardGameEnv, make_env


class raw_env(CardGameEnv):  # noqa: N801  (PettingZoo's name)
    metadata = {**CardGameEnv.metadata, "name": "bluff_v0"}

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__("bluff", render_mode, **options)


def env(**kwargs: Any) -> AECEnv:
    return make_env(raw_env(**kwargs))
