"""Bluff, the card version of Liar's Dice (RULES.md Part 1): a pure rules core."""

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
from usotsuki.bluff.notation import format_action, parse_action
from usotsuki.bluff.rules import BluffRules
from usotsuki.bluff.state import (
    BluffState,
    Phase,
    RoundResult,
    apply,
    deal_unchecked,
    is_true,
    legal_actions,
    new_game,
    push,
    start_round,
)
from usotsuki.bluff.view import BluffView, info_key, public_view, view

__all__ = [
    "ALL_CALLS", "CHALLENGE", "Action", "BluffRules", "BluffState", "BluffView", "Call",
    "CallKind", "CallSet", "Challenge", "Phase", "RoundResult", "apply", "calls_for",
    "deal_unchecked", "format_action", "info_key", "is_true", "legal_actions", "new_game",
    "parse_action", "public_view", "push", "start_round", "view",
]
