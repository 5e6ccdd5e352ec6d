"""Every reader of a record file accepts and refuses the same bytes, for the same reason.

The same inputs go to the two terminal commands (``usotsuki replay --json``, ``usotsuki
analyse``) and to the server's two record routes (``POST /api/replay``, ``POST
/api/review``); all four read them with ``core.record.parse_record_bytes``. A leading
byte-order mark is accepted, NaN and Infinity are refused (RFC 8259), a record nested
deeper than ``MAX_DEPTH`` is refused, and a lone surrogate is valid JSON (accepted in a
name, echoed as its escape in a message). Size is the one bound that differs, on purpose:
the server reads a posted record up to ``MAX_RECORD_BYTES``, the terminal a file up to
``MAX_FILE_BYTES`` (RULES.md sets none: a long valid record still replays there).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import close_all
from typer.testing import CliRunner

from usotsuki.cli.main import app as cli
from usotsuki.core.record import MAX_DEPTH, MAX_RECORD_BYTES
from usotsuki.server.app import create_app
from usotsuki.server.review_service import ReviewService

RUNNER = CliRunner(env={"COLUMNS": "1000", "NO_COLOR": "1"})
# A finished Bluff game on B13's 4-card deck: two rounds, ann then bob out.
VALID = json.dumps({"game": "bluff", "players": ["ann", "bob", "cy"],
                    "rules": {"max_cards": 1, "ranks": 2},
                    "rounds": [{"hands": [["KS"], ["AS"], ["KH"]],
                                "actions": ["card K", "pair K", "challenge"]},
                               {"hands": [[], ["AS"], ["KH"]],
                                "actions": ["card A", "pair A", "challenge"]}]}).encode()


def with_extra(value: bytes) -> bytes:
    """The valid record with one more top-level key holding ``value``."""
    return VALID[:-1] + b', "extra": ' + value + b"}"


@dataclass(frozen=True)
class Case:
    raw: bytes
    accepted: bool
    message: str | None = None  # the refusal every reader gives, when refused
    status: int = 400  # the server's status for the refusal (413: over a limit)
    terminal: bool | None = None  # the terminal's outcome, where it differs: accepted


CASES = {
    "valid": Case(VALID, True),
    "byte-order mark": Case(b"\xef\xbb\xbf" + VALID, True),
    "NaN": Case(with_extra(b"NaN"), False,
                "the record is not valid JSON: NaN is not valid JSON"),
    "Infinity": Case(with_extra(b"Infinity"), False,
                     "the record is not valid JSON: Infinity is not valid JSON"),
    "-Infinity": Case(with_extra(b"-Infinity"), False,
                      "the record is not valid JSON: -Infinity is not valid JSON"),
    "too deep": Case(with_extra(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH), False,
                     f"the record nests deeper than {MAX_DEPTH} levels", 413),
    "deep enough": Case(with_extra(b"[" * (MAX_DEPTH - 1) + b"]" * (MAX_DEPTH - 1)), True),
    "too large": Case(VALID[:-1] + b" " * MAX_RECORD_BYTES + b"}", False,
                      f"the record has {len(VALID) + MAX_RECORD_BYTES} bytes; at most "
                      f"{MAX_RECORD_BYTES} are read", 413, terminal=True),
    "lone surrogate in a name": Case(VALID.replace(b'"ann"', b'"\\ud800"'), True),
    "lone surrogate as the game": Case(b'{"game": "\\udfff"}', False,
                                       'unknown game "\\udfff" (expected "bluff" or "liar")'),
    "not an object": Case(b"[1, 2, 3]", False, "a record is a JSON object, not [1, 2, 3]"),
    "not UTF-8": Case(VALID.replace(b'"ann"', b'"\xff"'), False,
                      f"the record is not UTF-8 text: invalid start byte at byte "
                      f"{VALID.index(b'ann')}"),
}


@dataclass(frozen=True)
class Outcome:
    accepted: bool
    message: str | None


def cli_replay(raw: bytes, tmp_path: Path) -> Outcome:
    path = tmp_path / "record.json"
    path.write_bytes(raw)
    result = RUNNER.invoke(cli, ["replay", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    report = json.loads(result.stdout)
    if report["ok"]:
        assert report["finished"] and result.exit_code == 0
        return Outcome(True, None)
    return Outcome(False, report["error"]["message"])


def cli_analyse(raw: bytes, tmp_path: Path, expected: str | None) -> Outcome:
    """``usotsuki analyse``: 0 with a review, else 1 with the message printed."""
    path = tmp_path / "record.json"
    path.write_bytes(raw)
    out = tmp_path / "review.json"
    result = RUNNER.invoke(cli, ["analyse", str(path), "--depth", "2", "--json", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 0:
        assert json.loads(out.read_text())["finished"] is True
        return Outcome(True, None)
    # The message as printed (the terminal's escapes undone); None when another.
    printed = result.output.replace("\\\\", "\\")
    return Outcome(False, expected if expected is not None and expected in printed
                   else printed)


@pytest.fixture(scope="module")
def server() -> Iterator[TestClient]:
    with ThreadPoolExecutor(2) as threads:
        reviews = ReviewService(depth=2, submit=threads.submit)
        with TestClient(create_app(bot_delay=0, reviews=reviews)) as client:
            yield client
            close_all()


def server_replay(raw: bytes, client: TestClient, status: int) -> Outcome:
    r = client.post("/api/replay", content=raw)
    if r.status_code == 200:
        assert r.json()["frames"]
        return Outcome(True, None)
    assert r.status_code == status, r.text
    return Outcome(False, r.json()["message"])


def server_review(raw: bytes, client: TestClient, status: int) -> Outcome:
    deadline = time.monotonic() + 60
    while (r := client.post("/api/review", content=raw)).status_code == 202:
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.05)
    if r.status_code == 200:
        assert r.json()["analysis"]["finished"] is True
        return Outcome(True, None)
    assert r.status_code == status, r.text
    return Outcome(False, r.json()["message"])


@pytest.mark.parametrize("name", list(CASES))
def test_terminal_and_server_read_records_alike(name: str, tmp_path: Path,
                                               server: TestClient) -> None:
    case = CASES[name]
    expected = Outcome(case.accepted, case.message)
    locally = expected if case.terminal is None else Outcome(case.terminal, None)
    outcomes = {"usotsuki replay": cli_replay(case.raw, tmp_path),
                "usotsuki analyse": cli_analyse(case.raw, tmp_path, case.message),
                "POST /api/replay": server_replay(case.raw, server, case.status),
                "POST /api/review": server_review(case.raw, server, case.status)}
    assert outcomes == {"usotsuki replay": locally, "usotsuki analyse": locally,
                        "POST /api/replay": expected, "POST /api/review": expected}


def test_the_terminal_bounds_a_file_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    import usotsuki.replay

    monkeypatch.setattr(usotsuki.replay, "MAX_FILE_BYTES", len(VALID) + 10)
    big = VALID[:-1] + b" " * 11 + b"}"
    assert cli_replay(big, tmp_path) == Outcome(
        False, f"the record has {len(big)} bytes; at most {len(VALID) + 10} are read")

