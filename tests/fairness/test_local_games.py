"""The terminal's local games record a fairness object that verifies: played out, with
``--seed`` (the same seed plays the same game) and resumed from a saved record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from usotsuki.cli.main import app
from usotsuki.fairness import LOCAL_TABLE, verify_record

runner = CliRunner()
GAMES = ["bluff", "liar"]


def play(game: str, *args: str, answers: int = 600) -> None:
    result = runner.invoke(app, ["play", game, "--delay", "0", "--players", "3", *args],
                           input="auto\n" * answers)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("game", GAMES)
def test_a_local_game_verifies_and_a_seed_repeats_it(game: str, tmp_path: Path) -> None:
    one, two, other = tmp_path / "1.json", tmp_path / "2.json", tmp_path / "3.json"
    play(game, "--seed", "11", "--save", str(one))
    play(game, "--seed", "11", "--save", str(two))
    play(game, "--save", str(other))
    assert one.read_bytes() == two.read_bytes()
    for path in (one, other):
        record = json.loads(path.read_text())
        assert record["fairness"]["table"] == LOCAL_TABLE
        assert [c["seat"] for c in record["fairness"]["contributions"]] == [0]  # the person
        assert verify_record(record) is None
        result = runner.invoke(app, ["verify", str(path)])
        assert result.exit_code == 0 and "verified" in result.stdout
    assert json.loads(other.read_text())["fairness"] != json.loads(one.read_text())["fairness"]


@pytest.mark.parametrize("game", GAMES)
def test_a_resumed_game_deals_on_from_its_secret(game: str, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    play(game, "--seed", "12", "--save", str(save), answers=2)  # input ends: saved so far
    partial = json.loads(save.read_text())
    assert partial["fairness"]["secret"] is not None  # the terminal keeps it for --resume
    result = runner.invoke(app, ["play", "--resume", str(save), "--delay", "0"],
                           input="auto\n" * 600)
    assert result.exit_code == 0, result.output
    record = json.loads(save.read_text())
    assert record["fairness"] == partial["fairness"]
    assert len(record["rounds" if game == "bluff" else "games"][0]["actions"]) > 2
    assert verify_record(record) is None
