"""``usotsuki verify FILE``: recompute every deal of a record from its ``fairness`` object
(docs/fairness.md) and replay it (RULES.md Part 5).

Exit statuses: 0 verified; 1 the record differs from its derivation (the commitment, the
Liar Game's seed, a hand or a stock) or does not replay; 2 it cannot be checked at all (an
unreadable file, a record that is not one, no or a malformed ``fairness`` object, the
secret not revealed yet).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from usotsuki.cli.stderr import error_console, print_error
from usotsuki.core.record import MAX_FILE_BYTES, RecordError, parse_record_bytes
from usotsuki.fairness import Unverifiable, verify_record
from usotsuki.replay import replay_bytes

VERIFIED, DIFFERS, UNCHECKABLE = 0, 1, 2


def verify_bytes(data: bytes) -> tuple[int, dict[str, Any]]:
    """The exit status and the JSON answer for a record's bytes: ``{"verified": bool,
    "error": null or {"place", "round", "seat", "message"}}``. ``place`` is ``file``,
    ``record`` or ``fairness`` (cannot be checked), or ``commitment``, ``seed``, ``hand``,
    ``stock`` or ``replay`` (differs); ``round`` the index in ``rounds`` or ``games``."""
    try:
        record = parse_record_bytes(data, MAX_FILE_BYTES)
        if not isinstance(record, dict):
            raise Unverifiable("a record is a JSON object")
        mismatch = verify_record(record)
    except RecordError as exc:
        return UNCHECKABLE, _answer("file", str(exc))
    except Unverifiable as exc:
        return UNCHECKABLE, _answer(exc.place, str(exc))
    if mismatch is not None:
        return DIFFERS, {"verified": False, "error": mismatch.to_json()}
    report = replay_bytes(data)
    if not report["ok"]:
        fault = report["error"]
        return DIFFERS, _answer("replay", f"every deal derives, but the record does not "
                                f"replay: {fault['message']}", fault["round"])
    return VERIFIED, {"verified": True, "error": None}


def _answer(place: str, message: str, number: int | None = None) -> dict[str, Any]:
    return {"verified": False,
            "error": {"place": place, "round": number, "seat": None, "message": message}}


def run_verify(file: Path, as_json: bool) -> int:
    """Verify ``file``; print ``verified`` or where it differs; return the exit status."""
    try:
        data = file.read_bytes()
    except OSError as exc:
        status, answer = UNCHECKABLE, _answer("file", f"cannot read {file}: "
                                              f"{exc.strerror or exc}")
    else:
        status, answer = verify_bytes(data)
    if as_json:
        typer.echo(json.dumps(answer, ensure_ascii=False))
    elif status == VERIFIED:
        typer.echo(f"{file}: verified (every deal follows from the committed secret and "
                   "the contributions)")
    else:
        lead = "cannot be verified" if status == UNCHECKABLE else "differs"
        print_error(error_console(), f"{file} {lead}: {answer['error']['message']}")
    return status
