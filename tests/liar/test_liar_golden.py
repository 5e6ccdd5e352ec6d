"""Golden records: hand-checked Part 5 outputs for Liar Game records (tests/golden)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from usotsuki.liar import replay_report

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"  # the sample's copy


def records(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("liar_*.json") if not p.name.endswith(".expected.json"))


def differences(want: Any, got: Any, where: str = "") -> list[str]:
    """Every key of ``want`` must match ``got`` (error messages are free text); extra keys
    in ``got`` are welcome (Part 5). ``True`` never matches ``1``."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        return [d for key, value in want.items() if key != "message"
                for d in differences(value, got.get(key, "<missing>"), f"{where}.{key}")]
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{where}: expected {want!r}, got {got!r}"]
        return [d for i, (a, b) in enumerate(zip(want, got, strict=True))
                for d in differences(a, b, f"{where}[{i}]")]
    if type(want) is not type(got) or want != got:
        return [f"{where}: expected {want!r}, got {got!r}"]
    return []


def check(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    want = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    got = replay_report(record)
    json.dumps(got)  # the report is JSON
    assert differences(want, got) == []


@pytest.mark.parametrize("path", records(GOLDEN), ids=lambda p: p.stem)
def test_golden_record(path: Path) -> None:
    check(path)


@pytest.mark.parametrize("path", records(CONFORMANCE), ids=lambda p: p.stem)
def test_conformance_record(path: Path) -> None:
    check(path)


def test_there_are_golden_records() -> None:
    assert len(records(GOLDEN)) >= 10
    assert len(records(CONFORMANCE)) >= 10
