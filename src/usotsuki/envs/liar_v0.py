"""The Liar Game (RULES.md Part 2) as a PettingZoo AEC environment.

``env(players=4, hand_size=9, deal_all=False, final_doubt=True, turn_limit=None,
multi=False, revolution=False, eight_cut=False, jack_back=False, six_up=False,
binding=False, classes=False, games=1, render_mode=None)``; ``raw_env`` without
PettingZoo's wrappers. A multi-card play (O1) or an O7 give is made card by card: the
same agent acts again until the completing id (:mod:`usotsuki.envs.liar_codec`).

Version history: v0, the first.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from usotsuki.envs.aec import CardGameEnv, make_env


class raw_env(CardGameEnv):  # noqa: N801  (PettingZoo's name)
    metadata = {**CardGameEnv.metadata, "name": "liar_v0"}

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__("liar", render_mode, **options)


def env(**kwargs: Any) -> AECEnv:
    return make_env(raw_env(**kwargs))
