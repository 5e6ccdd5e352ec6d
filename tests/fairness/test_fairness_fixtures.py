"""The shared fixture records get the answers ``expected.json`` gives them, through
``usotsuki verify --json`` itself; and the files are exactly what
``fairness_fixtures.py`` makes (the browser's verifier is tested on the same files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fairness_fixtures import EXPECTED, RECORDS, build, text
from typer.testing import CliRunner

from usotsuki.cli.main import app
from usotsuki.replay import replay_file

EXPECTED_ANSWERS = json.loads(EXPECTED.read_text(encoding="utf-8"))
runner = CliRunner()


def test_the_files_are_what_the_generator_makes() -> None:
    fixtures = build()
    assert sorted(fixtures) == sorted(EXPECTED_ANSWERS)
    assert sorted(p.name for p in RECORDS.glob("*.json")) == sorted(fixtures)
    for name, (record, answer) in fixtures.items():
        assert (RECORDS / name).read_text(encoding="utf-8") == text(record), name
        assert EXPECTED_ANSWERS[name] == answer, name


@pytest.mark.parametrize("name", sorted(EXPECTED_ANSWERS))
def test_verify_gives_the_expected_answer(name: str) -> None:
    expected = EXPECTED_ANSWERS[name]
    result = runner.invoke(app, ["verify", "--json", str(RECORDS / name)])
    answer = json.loads(result.stdout)
    assert result.exit_code == expected["exit"]
    assert answer["verified"] is expected["verified"]
    error = answer["error"]
    if expected["verified"]:
        assert error is None
    else:
        assert (error["place"], error["round"], error["seat"]) == (
            expected["place"], expected["round"], expected["seat"])


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED_ANSWERS if "valid" in n))
def test_valid_fixtures_replay_everywhere(name: str) -> None:
    """The ``fairness`` key is an unknown top-level key to RULES.md Part 4: ignored."""
    report = replay_file(Path(RECORDS / name))
    assert report["ok"] and report["finished"], report["error"]
