"""``usotsuki replay``'s engine: any record file in, the RULES.md Part 5 object out.

Never raises on bad input: a missing file, bytes that are not UTF-8, bad JSON and
unknown games all come back as ``ok: false`` with the fault located.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from usotsuki.core.json_guard import printable
from usotsuki.core.record import (
    MAX_FILE_BYTES,
    RecordError,
    check_record_object,
    parse_record_bytes,
)
from usotsuki.games import game as game_entry


def failed_report(fault: RecordError, game: str | None = None) -> dict[str, Any]:
    """The Part 5 object for a fault outside any round or game."""
    report: dict[str, Any] = {"game": game, "ok": False, "error": fault.fault.to_json(),
                              "finished": False, "standings": None, "to_move": None,
                              "legal": None}
    if game is not None:
        report[game_entry(game).record_key] = []
    return report


def replay_record(record: Any) -> dict[str, Any]:
    """Replay a parsed record of either game."""
    try:
        game = check_record_object(record)
    except RecordError as exc:
        return failed_report(exc)
    return game_entry(game).replay_report(record)


def _printable_report(report: dict[str, Any]) -> dict[str, Any]:
    return {key: printable(value) for key, value in report.items()}


def replay_bytes(data: bytes) -> dict[str, Any]:
    """Replay a record given as the bytes of its file; the report prints as UTF-8."""
    try:
        record = parse_record_bytes(data, MAX_FILE_BYTES)
    except RecordError as exc:
        return _printable_report(failed_report(exc))
    return _printable_report(replay_record(record))


def replay_file(path: str | Path) -> dict[str, Any]:
    """Replay the record in a file; an unreadable file is a fault too."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        fault = RecordError(f"cannot read {path}: {exc.strerror or exc}")
        return _printable_report(failed_report(fault))
    return replay_bytes(data)
