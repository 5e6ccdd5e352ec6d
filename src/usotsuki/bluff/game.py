"""Bluff as a :class:`usotsuki.core.game.Game`: the core's functions under the shared names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from usotsuki.bluff import notation, record, state, view
from usotsuki.bluff.actions import Action
from usotsuki.bluff.state import BluffState
from usotsuki.bluff.view import BluffView
from usotsuki.core.errors import IllegalAction
from usotsuki.core.events import Step
from usotsuki.core.game import Game


class BluffGame:
    """Bluff's functions over :class:`BluffState` (``legal``: the actions, weakest first)."""

    name = "bluff"

    def apply(self, s: BluffState, action: Action) -> Step[BluffState]:
        return state.apply(s, action)

    def push(self, s: BluffState, action: Action) -> BluffState:
        return state.push(s, action)

    def legal(self, s: BluffState) -> Sequence[Action]:
        return state.legal_actions(s)

    def illegal_reason(self, s: BluffState, action: Action) -> str | None:
        try:
            state.check_action(s, action)
        except IllegalAction as exc:
            return str(exc)
        return None

    def view(self, s: BluffState, seat: int | None) -> BluffView:
        return view.view(s, seat)

    def info_key(self, v: BluffView) -> str:
        return view.info_key(v)

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def replay_report(self, rec: Any) -> dict[str, Any]:
        return record.replay_report(rec)


GAME: Game[BluffState, Action, BluffView, Sequence[Action]] = BluffGame()
