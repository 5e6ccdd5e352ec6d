""""You" in the terminal: ``usotsuki replay`` and ``usotsuki analyse`` speak to the local
player of a ``usotsuki play`` record, or to whoever ``--as`` names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from usotsuki.cli.main import app
from usotsuki.cli.you import as_read_by, you_seat

RUNNER = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
ROUNDS = [{"hands": [["KS"], ["AS"], ["KH"]], "actions": ["card K", "pair K", "challenge"]},
          {"hands": [["KS", "KH"], ["AS"], ["AH"]],
           "actions": ["card A", "three A", "challenge"]},
          {"hands": [["KS", "KH"], ["AS"], ["AH", "AD"]],
           "actions": ["card A", "pair A", "challenge"]},
          {"hands": [["KS", "KH"], ["AS"], []], "actions": ["card A", "four A", "challenge"]},
          {"hands": [["KS", "KH"], ["AS", "AD"], []],
           "actions": ["card K", "four K", "challenge"]}]


def record(*names: str) -> dict[str, Any]:
    return {"game": "bluff", "players": list(names), "rules": {"max_cards": 2, "ranks": 2},
            "rounds": ROUNDS}


def run(tmp_path: Path, command: str, content: dict[str, Any], *options: str) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    result = RUNNER.invoke(app, [command, str(path), *options])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed: {result.exception!r}")
    return result.exit_code, result.output


def test_the_seat_is_chosen_by_number_or_by_name_compared_as_the_server_does() -> None:
    names = ["Mika", "Kenji (hard)", "ｍｉｋａ 2"]
    assert you_seat(names, None) is None
    assert you_seat(["Hana (easy)", "You"], None) == 1  # a ``usotsuki play`` record
    assert you_seat(names, "2") == 2
    assert you_seat(names, "MIKA") == 0
    assert you_seat(names, "mika 2") == 2
    with pytest.raises(ValueError, match="no such seat; the seats are 0 Mika, 1 Kenji"):
        you_seat(names, "3")
    with pytest.raises(ValueError, match="nobody has that name"):
        you_seat(names, "Ann")
    with pytest.raises(ValueError, match="seats 0, 2 bear that name: give the seat number"):
        you_seat(["Mika", "Ann", "mika"], "Mika")  # (an old record: names not unique)


def test_a_play_records_you_read_as_another_seat_is_a_seat_number() -> None:
    assert as_read_by(["You", "Hana (easy)"], 1) == ["seat 0", "You"]
    assert as_read_by(["You", "Hana (easy)"], 0) == ["You", "Hana (easy)"]


def test_replay_speaks_to_the_local_player_of_a_play_record(tmp_path: Path) -> None:
    code, out = run(tmp_path, "replay", record("You", "Kenji (hard)", "Yuki (easy)"))
    assert code == 0, out
    assert "You challenge" in out and "You take a card" in out
    assert "Standings: 1. You" in out


def test_replay_as_a_name_or_a_seat(tmp_path: Path) -> None:
    game = record("Ann", "Mika", "Cy")
    code, plain = run(tmp_path, "replay", game)
    assert code == 0 and "You" not in plain and "Mika takes a card" in plain
    code, as_mika = run(tmp_path, "replay", game, "--as", "mika")
    assert code == 0, as_mika
    assert "Mika" not in as_mika and "You take a card" in as_mika and "2. You" in as_mika
    assert run(tmp_path, "replay", game, "--as", "1")[1] == as_mika
    code, wrong = run(tmp_path, "replay", game, "--as", "Bob")
    assert code == 1 and "--as Bob: nobody has that name; the seats are 0 Ann, 1 Mika, 2 Cy" \
        in wrong


def test_analyse_as_a_player(tmp_path: Path) -> None:
    out_json = tmp_path / "a.json"
    code, text = run(tmp_path, "analyse", record("Ann", "Mika", "Cy"), "--as", "Cy",
                     "--depth", "8", "--json", str(out_json))
    assert code == 0, text
    rows = [line.split()[0] for line in text.splitlines()
            if line.split() and line.split()[0] in ("Ann", "Mika", "Cy", "You")]
    assert "You" in rows and "Cy" not in rows
    assert json.loads(out_json.read_text())["names"] == ["Ann", "Mika", "Cy"]  # data kept
    code, text = run(tmp_path, "analyse", record("Ann", "Mika", "Cy"), "--as", "7")
    assert code == 1 and "--as 7: no such seat" in text
