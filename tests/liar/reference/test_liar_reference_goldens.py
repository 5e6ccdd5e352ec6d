"""The hand-worked golden records of ``liar_review_goldens``: the files on disk are the
ones the script writes, and the reference reading gives every expected object.
(``tests/test_golden.py`` runs the same files through ``usotsuki replay --json``.)"""

from __future__ import annotations

import json
from typing import Any

import liar_reference as ref
import pytest
from liar_review_goldens import CASES, GOLDEN


def _without_message(report: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(report))
    if out.get("error"):
        out["error"].pop("message", None)
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_file_is_the_hand_worked_case(name: str) -> None:
    record, expected = CASES[name]
    on_disk = GOLDEN / f"liar_review_{name}.json"
    assert json.loads(on_disk.read_text(encoding="utf-8")) == record
    want = json.loads((GOLDEN / f"liar_review_{name}.expected.json").read_text("utf-8"))
    assert want == json.loads(json.dumps(expected))


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_gives_the_hand_worked_object(name: str) -> None:
    record, expected = CASES[name]
    assert _without_message(ref.replay(record)) == _without_message(expected)


def test_no_stray_review_golden_files() -> None:
    names = {p.name.removesuffix(".expected.json").removesuffix(".json")
             for p in GOLDEN.glob("liar_review_*.json")}
    assert names == {f"liar_review_{name}" for name in CASES}
