"""Bluff as a :class:`usotsuki.core.game.Game`: the core's functions under the shared names.
``legal`` is the sequence of legal actions, calls weakest first."""

from __future__ import annotations

from collections.abc import Sequence

from usotsuki.bluff import notation, record, state, view
from usotsuki.bluff.actions import Action
from usotsuki.bluff.state import BluffState
from usotsuki.bluff.view import BluffView
from usotsuki.core.errors import IllegalAction
from usotsuki.core.game import Game


def illegal_reason(s: BluffState, action: Action) -> str | None:
    """Why ``action`` is illegal for the player to move, citing the rule; None if legal."""
    try:
        state.check_action(s, action)
    except IllegalAction as exc:
        return str(exc)
    return None


GAME: Game[BluffState, Action, BluffView, Sequence[Action]] = Game(
    name="bluff", apply=state.apply, push=state.push, legal=state.legal_actions,
    illegal_reason=illegal_reason, view=view.view, info_key=view.info_key,
    parse_action=notation.parse_action, format_action=notation.format_action,
    replay_report=record.replay_report)
