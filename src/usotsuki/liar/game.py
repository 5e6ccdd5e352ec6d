"""The Liar Game as a :class:`usotsuki.core.game.Game`: the core's functions under the
shared names. ``legal`` is the Part 5 :class:`LegalSummary` (counts and rates): with O1
the concrete plays are too many to list; :func:`usotsuki.liar.iter_legal_actions` yields
them and ``illegal_reason`` judges one."""

from __future__ import annotations

from usotsuki.core.game import Game
from usotsuki.liar import legal, notation, record, state, view
from usotsuki.liar.actions import Action
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.state import LiarState
from usotsuki.liar.view import LiarView

GAME: Game[LiarState, Action, LiarView, LegalSummary | None] = Game(
    name="liar", apply=state.apply, push=state.push, legal=legal.legal_summary,
    illegal_reason=legal.illegal_reason, view=view.view, info_key=view.info_key,
    parse_action=notation.parse_action, format_action=notation.format_action,
    replay_report=record.replay_report)
