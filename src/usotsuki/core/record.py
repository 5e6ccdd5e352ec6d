"""Reading game records (RULES.md Part 4): the one parser, and the checks both games share.

Each game's own ``record`` module validates its rounds or games and replays them; this
module turns bytes into a JSON value and checks the fields common to both games, with
faults that carry their place in the record (Part 5: ``round``, ``index``, ``action``).

:func:`parse_record_bytes` is the only way a record file or a posted record becomes a
value: ``usotsuki replay`` and ``usotsuki analyse``, the server's replays and reviews all
read it here, so they accept and refuse the same files. Its decisions, checked in this
order:

- **Size:** a bound the reader gives: :data:`MAX_RECORD_BYTES` for a record posted to
  the server (every legal Bluff game fits: the longest possible, 8 players with 6 cards
  calling all 326 calls each round, is 235 KB; so does a Liar Game match of some 60 games
  as the bots play them, 2 to 4 KB a game), :data:`MAX_FILE_BYTES` for a file the
  terminal reads (RULES.md sets no bound: a long Liar Game without a turn limit, or a long
  match, is still a record to replay; the bound only keeps memory finite).
- **Encoding:** UTF-8, a leading byte-order mark allowed and dropped (Part 5).
- **Nesting:** at most :data:`MAX_DEPTH` levels, checked before parsing (a record needs 5:
  record, rounds or games, one of them, its hands, one hand).
- **JSON:** strict RFC 8259: ``NaN``, ``Infinity`` and ``-Infinity`` are refused.
- **Lone surrogates** (``"\\ud800"``): valid JSON, so accepted; the reports that echo
  them write them as escapes (:mod:`usotsuki.core.json_guard`).

Over the size or depth limit is a :class:`RecordTooLarge`; anything else a
:class:`RecordError`. Both are faults of the record as a whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from usotsuki.core.errors import MalformedRecord
from usotsuki.core.events import Event
from usotsuki.core.game import GAMES, MAX_PLAYERS, MIN_PLAYERS
from usotsuki.core.json_guard import NotJson, TooDeep, parse_json

MAX_RECORD_BYTES = 256 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 8


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


S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class ReplayStep(Generic[S]):
    """One step of a record as its replay takes it, for a caller that follows along (the
    server's replay frames): a deal (``actor`` and ``action`` None) or an action as
    written, the state after it and the events it made."""

    number: int  # the round (Bluff) or game (Liar Game) it belongs to
    actor: int | None
    action: str | None
    state: S
    events: tuple[Event, ...]


OnStep = Callable[[ReplayStep[S]], None]


class RecordError(MalformedRecord):
    """A malformed record, located by its :class:`Fault`."""

    def __init__(self, message: str, round: int | None = None, index: int | None = None,
                 action: str | None = None) -> None:
        super().__init__(message, action=action)
        self.fault = Fault(message, round, index, action)


class RecordTooLarge(RecordError):
    """A record over its size bound or :data:`MAX_DEPTH`: refused unread."""


def check_record_size(size: int, limit: int = MAX_RECORD_BYTES) -> None:
    """:raises RecordTooLarge: for a record of ``size`` bytes, over ``limit`` (a server
    checks a posted record's announced length with it before reading it)."""
    if size > limit:
        raise RecordTooLarge(f"the record has {size} bytes; at most {limit} are read")


def parse_record_bytes(data: bytes, limit: int = MAX_RECORD_BYTES) -> Any:
    """The JSON value of a record's bytes (the module's decisions, in their order);
    ``limit``: its size bound (:data:`MAX_FILE_BYTES` for a file read by the terminal).

    :raises RecordTooLarge: over the size or nesting limit.
    :raises RecordError: for text that is not UTF-8 or not JSON.
    """
    check_record_size(len(data), limit)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"the record is not UTF-8 text: {exc.reason} at byte {exc.start}") \
            from None
    try:
        return parse_json(text, MAX_DEPTH)
    except TooDeep as exc:
        raise RecordTooLarge(f"the record {exc}") from None
    except NotJson as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None


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
