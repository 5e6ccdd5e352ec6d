"""Reading game records (RULES.md Part 4): the checks both games share.

Each game's own ``record`` module validates its rounds or games and replays them; this
module turns bytes into a JSON object and checks the fields common to both games, with
faults that carry their place in the record (Part 5: ``round``, ``index``, ``action``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from usotsuki.core.errors import MalformedRecord
from usotsuki.core.game import GAMES, MAX_PLAYERS, MIN_PLAYERS


@dataclass(frozen=True, slots=True)
class Fault:
    """Where and why a record stops replaying (Part 5 ``error``)."""

    message: str
    round: int | None = None
    index: int | None = None
    action: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "index": self.index, "action": self.action,
                "message": self.message}


class RecordError(MalformedRecord):
    """A malformed record, located by its :class:`Fault`."""

    def __init__(self, message: str, round: int | None = None, index: int | None = None,
                 action: str | None = None) -> None:
        super().__init__(message, action=action)
        self.fault = Fault(message, round, index, action)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_record_bytes(data: bytes) -> Any:
    """Decode UTF-8 (a leading byte-order mark allowed) and parse JSON.

    :raises RecordError: for text that is not UTF-8 or not JSON.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"the record is not UTF-8 text: {exc.reason} at byte {exc.start}") \
            from None
    return parse_record_text(text)


def parse_record_text(text: str) -> Any:
    """Parse JSON text strictly (no NaN or Infinity)."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    except RecursionError:  # Part 5: a malformed record is an error, never a crash
        raise RecordError("the record is nested too deeply to read") from None


def json_text(value: Any) -> str:
    """Compact JSON text of a value, for messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except RecursionError:  # json.loads may accept a nesting that json.dumps refuses
        return "<a JSON value nested too deeply to print>"


def action_as_written(value: Any) -> str | None:
    """Part 5 ``error.action``: a string as written, else its JSON text; null gives null."""
    if value is None or isinstance(value, str):
        return value
    return json_text(value)


def is_int(value: Any) -> bool:
    """A JSON integer: not a boolean, not a float (Part 4: no fraction, no exponent)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_record_object(record: Any) -> str:
    """Check the record is an object with a known ``game``; return the game's name."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {json_text(record)[:40]}")
    game = record.get("game")
    if game not in GAMES:
        if "game" not in record:
            raise RecordError('the record has no "game" (expected "bluff" or "liar")')
        raise RecordError(f'unknown game {json_text(game)} (expected "bluff" or "liar")')
    return str(game)


def parse_players(value: Any) -> tuple[int, tuple[str, ...] | None]:
    """Part 4 ``players``: a count 2..8 or a list of 2..8 names. Returns (count, names)."""
    if is_int(value):
        count, names = int(value), None
    elif isinstance(value, list):
        if not all(isinstance(n, str) for n in value):
            raise RecordError("players: every name must be a string")
        count, names = len(value), tuple(value)
    else:
        raise RecordError(f"players must be a count or a list of names, not {json_text(value)}")
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RecordError(f"players: {count} is outside {MIN_PLAYERS} to {MAX_PLAYERS}")
    return count, names


def rules_object(record: Mapping[str, Any], known: Mapping[str, object]) -> dict[str, Any]:
    """Part 4 ``rules``: absent or null gives {}; an unknown key is an error.

    ``known`` maps each option name to its default (only the keys are used here).
    """
    rules = record.get("rules")
    if rules is None:
        return {}
    if not isinstance(rules, dict):
        raise RecordError(f"rules must be an object, not {json_text(rules)}")
    for key in rules:
        if key not in known:
            raise RecordError(f"unknown rule {key!r} (known: {', '.join(known)})")
    return dict(rules)


def check_int_option(name: str, value: Any, minimum: int | None = None,
                     maximum: int | None = None) -> int:
    """An integer option within bounds, else a :class:`RecordError` naming it."""
    if not is_int(value):
        raise RecordError(f"rules.{name} must be an integer, not {json_text(value)}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f">= {minimum}" if maximum is None else f"{minimum} to {maximum}"
        raise RecordError(f"rules.{name} must be {bounds}, not {value}")
    return int(value)


def check_bool_option(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"rules.{name} must be true or false, not {json_text(value)}")
    return value


def entry_list(record: Mapping[str, Any], key: str) -> list[Any]:
    """The list of rounds (Bluff) or games (Liar Game): present and a list."""
    if key not in record:
        raise RecordError(f'the record has no "{key}"')
    entries = record[key]
    if not isinstance(entries, list):
        raise RecordError(f'"{key}" must be a list, not {json_text(entries)[:40]}')
    return entries


def entry_field(entry: Any, key: str, number: int, kind: str) -> list[Any]:
    """A list field (``hands``, ``actions``, ``stock``) of round or game ``number``."""
    if not isinstance(entry, dict):
        raise RecordError(f"{kind} {number} must be an object", round=number)
    if key not in entry:
        raise RecordError(f'{kind} {number} has no "{key}"', round=number)
    value = entry[key]
    if not isinstance(value, list):
        raise RecordError(f'{kind} {number}: "{key}" must be a list', round=number)
    return value
