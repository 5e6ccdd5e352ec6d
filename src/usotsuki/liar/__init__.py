"""The Liar Game (RULES.md Part 2): rules, state, notation, views and records.

Modules: ``rules`` (options), ``actions`` (values and rates), ``notation`` (Part 3),
``state`` (the immutable state, ``apply``/``push``), ``legal`` (what may be done),
``events``, ``view`` (what one seat knows), ``match`` (live play: deals, seeds, the log)
and ``record`` (Part 4 records, Part 5 report). They follow the model both cores share
(:mod:`usotsuki.core.game`); :mod:`usotsuki.session` puts one interface over both games.
"""

from usotsuki.liar.actions import (
    ACCEPT,
    DOUBT,
    PASS,
    RATE_NAMES,
    Accept,
    Action,
    Doubt,
    Give,
    Pass,
    Play,
    parse_rate,
    rate_of,
)
from usotsuki.liar.events import Event
from usotsuki.liar.legal import (
    Illegal,
    LegalSummary,
    Plays,
    check,
    illegal_reason,
    is_legal,
    iter_legal_actions,
    legal_summary,
    random_action,
    uniform_action,
)
from usotsuki.liar.match import GameLog, LiarMatch, deal, new_seed
from usotsuki.liar.notation import format_action, parse_action
from usotsuki.liar.record import (
    LiarReplay,
    read_rules,
    read_seed,
    replay,
    replay_report,
    write_record,
)
from usotsuki.liar.rules import LiarRules, parse_rules_text
from usotsuki.liar.state import (
    DoubtResult,
    Exchange,
    FieldPlay,
    LiarState,
    apply,
    new_game,
    next_game,
    push,
)
from usotsuki.liar.view import LiarView, info_key, view

__all__ = [
    "ACCEPT", "DOUBT", "PASS", "RATE_NAMES", "Accept", "Action", "Doubt",
    "DoubtResult", "Event", "Exchange", "FieldPlay", "GameLog", "Give", "Illegal",
    "LegalSummary", "LiarMatch", "LiarReplay", "LiarRules", "LiarState",
    "LiarView", "Pass", "Play", "Plays", "apply", "check", "deal", "format_action",
    "illegal_reason", "info_key", "is_legal", "iter_legal_actions", "legal_summary",
    "new_game", "new_seed", "next_game", "parse_action", "parse_rate", "parse_rules_text",
    "push", "random_action", "rate_of", "read_rules", "read_seed", "replay",
    "replay_report", "uniform_action", "view", "write_record",
]
