"""The Liar Game as a :class:`usotsuki.core.game.Game`: the core's functions under the
shared names. ``legal`` is the Part 5 :class:`LegalSummary` (counts and rates): with O1
the concrete plays are too many to list; :func:`usotsuki.liar.iter_legal_actions` yields
them and ``illegal_reason`` judges one."""

from __future__ import annotations

from typing import Any

from usotsuki.core.events import Step
from usotsuki.core.game import Game
from usotsuki.liar import legal, notation, record, state, view
from usotsuki.liar.actions import Action
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.state import LiarState
from usotsuki.liar.view import LiarView


class LiarGame:
    """The Liar Game's functions over :class:`LiarState`."""

    name = "liar"

    def apply(self, s: LiarState, action: Action) -> Step[LiarState]:
        return state.apply(s, action)

    def push(self, s: LiarState, action: Action) -> LiarState:
        return state.push(s, action)

    def legal(self, s: LiarState) -> LegalSummary | None:
        return legal.legal_summary(s)

    def illegal_reason(self, s: LiarState, action: Action) -> str | None:
        return legal.illegal_reason(s, action)

    def view(self, s: LiarState, seat: int | None) -> LiarView:
        return view.view(s, seat)

    def info_key(self, v: LiarView) -> str:
        return view.info_key(v)

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def replay_report(self, rec: Any) -> dict[str, Any]:
        return record.replay_report(rec)


GAME: Game[LiarState, Action, LiarView, LegalSummary | None] = LiarGame()
