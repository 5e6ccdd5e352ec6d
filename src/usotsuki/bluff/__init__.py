"""Bluff, the card version of Liar's Dice (RULES.md Part 1): a pure rules core.

``GAME`` is Bluff as a :class:`usotsuki.core.game.Game`, the interface it shares with the
Liar Game; the functions below are the same ones by their own names.
"""

from usotsuki.bluff.actions import (
    ALL_CALLS,
    CHALLENGE,
    Action,
    Call,
    CallKind,
    CallSet,
    Challenge,
    calls_for,
)
from usotsuki.bluff.game import GAME
from usotsuki.bluff.notation import format_action, parse_action
from usotsuki.bluff.record import BluffReplay, read_rules, replay, replay_report, write_record
from usotsuki.bluff.rules import BluffRules
from usotsuki.bluff.state import (
    BluffState,
    Phase,
    RoundResult,
    apply,
    call_cards,
    deal_unchecked,
    is_true,
    legal_actions,
    new_game,
    push,
    requirements,
    start_round,
)
from usotsuki.bluff.view import BluffView, info_key, view

__all__ = [
    "ALL_CALLS", "CHALLENGE", "GAME", "Action", "BluffReplay", "BluffRules",
    "BluffState", "BluffView", "Call", "CallKind", "CallSet", "Challenge", "Phase",
    "RoundResult", "apply", "call_cards", "calls_for", "deal_unchecked", "format_action",
    "info_key", "is_true", "legal_actions", "new_game", "parse_action", "push", "read_rules",
    "replay", "replay_report", "requirements", "start_round", "view", "write_record",
]
