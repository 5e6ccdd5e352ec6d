"""Bluff, the card version of Liar's Dice (RULES.md Part 1): a pure rules core.

Its states, actions and functions follow the model both cores share
(:mod:`usotsuki.core.game`); :mod:`usotsuki.session` puts one interface over both games.
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
from usotsuki.bluff.notation import format_action, parse_action
from usotsuki.bluff.record import BluffReplay, read_rules, replay, replay_report, write_record
from usotsuki.bluff.rules import BluffRules, parse_rules_text
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
    "ALL_CALLS", "CHALLENGE", "Action", "BluffReplay", "BluffRules",
    "BluffState", "BluffView", "Call", "CallKind", "CallSet", "Challenge", "Phase",
    "RoundResult", "apply", "call_cards", "calls_for", "deal_unchecked", "format_action",
    "info_key", "is_true", "legal_actions", "new_game", "parse_action", "parse_rules_text",
    "push", "read_rules", "replay", "replay_report", "requirements", "start_round", "view",
    "write_record",
]
