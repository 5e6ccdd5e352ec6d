"""Golden records, replayed through the real command line (Typer's ``CliRunner``).

``tests/golden/NAME.json`` (either game) must print ``NAME.expected.json``:
1. compared as the shared conformance ``check.py`` compares (its own ``differences``
   function, from the copy in ``tests/conformance/``), and
2. with the Part 5 keys fully equal (``error.message`` is free text: only non-empty;
   keys beyond those stored are welcome), and the exit status 0 exactly when ``ok``.
The conformance sample (``tests/conformance/``, a copy of the project's shared sample, so
that the tests read nothing outside this repository and a fresh clone runs them all) is
compared as ``check.py`` does; ``tests/conformance/b13/`` holds the sample's B13 records.
Rewrite expected files with ``scripts/regenerate_golden.py`` and review the diff.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from usotsuki.cli.main import app
from usotsuki.core.record import action_as_written

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
CONFORMANCE = HERE / "conformance"
B13 = CONFORMANCE / "b13"  # RULES.md B13 (option ``ranks``), the sample's own folder
PART5_KEYS = ("game", "ok", "error", "finished", "standings", "to_move", "legal")


def _load_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("conformance_check", CONFORMANCE / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _load_check()


def records_in(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))


def replay_cli(path: Path) -> tuple[dict[str, Any], int]:
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    lines = result.stdout.splitlines()
    assert len(lines) == 1, f"expected one line of JSON, got {result.stdout[:300]!r}"
    return json.loads(lines[0]), result.exit_code


def read_record(path: Path) -> Any:
    """The record as check.py reads it (None when it is not UTF-8 JSON)."""
    try:
        return json.loads(path.read_bytes().decode("utf-8-sig"))
    except ValueError:
        return None


def record_for_check(record: Any, want: dict[str, Any]) -> Any:
    """check.py takes ``error.action`` from the record as is; RULES.md Part 5 writes a
    non-string action as its JSON text. Give check.py the action as Part 5 spells it."""
    error = want.get("error")
    if not isinstance(error, dict) or error.get("index") is None or record is None:
        return record
    key = "rounds" if want["game"] == "bluff" else "games"
    try:
        written = record[key][error["round"]]["actions"][error["index"]]
    except (IndexError, KeyError, TypeError):
        pytest.fail(f"the expected error points at no action of the record: {error}")
    spelled = action_as_written(written)
    if spelled == written:
        return record
    copy = json.loads(json.dumps(record))
    copy[key][error["round"]]["actions"][error["index"]] = spelled
    return copy


def covers(want: Any, got: Any) -> bool:
    """``got`` equals ``want`` (booleans never equal to numbers, lists in order), except
    that an object in ``got`` may hold keys ``want`` does not (Part 5: more are welcome)."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and covers(v, got[k])
                                             for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(
            covers(a, b) for a, b in zip(want, got, strict=True))
    return bool(CHECK.same(want, got))


def expected_of(path: Path) -> dict[str, Any]:
    target = path.with_name(path.stem + ".expected.json")
    if not target.exists():
        pytest.fail(f"{target.name} is missing: run scripts/regenerate_golden.py "
                    f"{path.stem} and review it against RULES.md")
    result: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
    return result


@pytest.mark.parametrize("path", records_in(GOLDEN), ids=lambda p: p.stem)
def test_golden_record(path: Path) -> None:
    want = expected_of(path)
    got, code = replay_cli(path)
    differences = CHECK.differences(want, got, code, record_for_check(read_record(path), want))
    assert not differences, "\n".join(differences)
    assert code == (0 if want["ok"] else 1)
    game_key = "rounds" if want["game"] == "bluff" else "games"
    keys = PART5_KEYS + ((game_key,) if want["game"] else ())
    for key in keys:
        if key == "error" and isinstance(want["error"], dict):
            assert isinstance(got["error"], dict)
            message = got["error"].get("message")
            assert isinstance(message, str) and message.strip()
            trimmed = {k: v for k, v in got["error"].items() if k != "message"}
            assert trimmed == {k: v for k, v in want["error"].items() if k != "message"}
        else:
            assert covers(want[key], got.get(key)), (
                f"{key}: expected {json.dumps(want[key])[:300]}, got "
                f"{json.dumps(got.get(key))[:300]}")


def test_golden_records_cover_every_bluff_rule() -> None:
    names = [p.stem for p in records_in(GOLDEN)]
    for rule in range(1, 13):
        assert any(n.startswith(f"bluff_b{rule}_") for n in names), f"no golden record for B{rule}"
    assert sum(n.startswith("bluff_part") for n in names) >= 5  # malformed and fine points


def _conformance_cases() -> list[Any]:
    cases = [pytest.param(p, id=f"copy/{p.stem}") for p in records_in(CONFORMANCE)]
    cases += [pytest.param(p, id=f"b13/{p.stem}") for p in records_in(B13)]
    return cases


@pytest.mark.parametrize("path", _conformance_cases())
def test_conformance_sample(path: Path) -> None:
    if path.stem.startswith("liar_") and importlib.util.find_spec("usotsuki.liar.record") is None:
        pytest.skip("the Liar Game record module is not there yet")
    want = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    got, code = replay_cli(path)
    differences = CHECK.differences(want, got, code, read_record(path))
    assert not differences, "\n".join(differences)


def test_conformance_copy_is_present() -> None:
    assert (CONFORMANCE / "check.py").exists() and len(records_in(CONFORMANCE)) >= 30
    assert len(records_in(B13)) >= 3
