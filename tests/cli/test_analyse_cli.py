"""``usotsuki analyse FILE [--json OUT] [--plot OUT.png] [--depth N] [--seed S]``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from usotsuki.cli.main import app

RUNNER = CliRunner(env={"COLUMNS": "160", "NO_COLOR": "1"})
# B13's 8-card deck, 3 players, out at the second loss (B2): a whole game of five rounds
RECORD = {"game": "bluff", "players": ["ann", "bob", "cy"],
          "rules": {"max_cards": 2, "ranks": 2},
          "rounds": [{"hands": [["KS"], ["AS"], ["KH"]],
                      "actions": ["card K", "pair K", "challenge"]},  # ann loses
                     {"hands": [["KS", "KH"], ["AS"], ["AH"]],
                      "actions": ["card A", "three A", "challenge"]},  # cy loses
                     {"hands": [["KS", "KH"], ["AS"], ["AH", "AD"]],
                      "actions": ["card A", "pair A", "challenge"]},  # cy is out
                     {"hands": [["KS", "KH"], ["AS"], []],
                      "actions": ["card A", "four A", "challenge"]},  # bob loses
                     {"hands": [["KS", "KH"], ["AS", "AD"], []],
                      "actions": ["card K", "four K", "challenge"]}]}  # bob is out


def run(tmp_path: Path, record: Any, *options: str) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_bytes(record if isinstance(record, bytes) else json.dumps(record).encode())
    result = RUNNER.invoke(app, ["analyse", str(path), *options])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed: {result.exception!r}")
    return result.exit_code, result.output


def test_analyse_prints_summaries_marks_and_writes_json_and_chart(tmp_path: Path) -> None:
    out_json, out_png = tmp_path / "a.json", tmp_path / "a.png"
    code, text = run(tmp_path, RECORD, "--json", str(out_json), "--plot", str(out_png),
                     "--depth", "30", "--seed", "4")
    assert code == 0, text
    assert "Bluff review, 3 players, finished; depth 30, seed 4" in text
    for name in ("ann", "bob", "cy"):
        assert name in text
    assert "three A" in text.split("Marked moves")[1]
    analysis = json.loads(out_json.read_text())
    assert analysis["schema"] == "usotsuki.analysis/2" and analysis["depth"] == 30
    assert len(analysis["decisions"]) == 15 and analysis["seed"] == 4
    # cy's "three A" needs two of the three unseen aces among the other three cards:
    # 13 of C(7, 3) = 35 deals (B8), and a challenge is then likely: a marked move
    three = next(d for d in analysis["decisions"] if d["action"] == "three A")
    assert three["p_action"] == round(13 / 35, 4)
    assert three["mark"] in ("mistake", "blunder")
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_files_and_options_get_a_clear_error(tmp_path: Path) -> None:
    code, text = run(tmp_path, b"{not json")
    assert code == 1 and "not valid JSON" in text
    code, text = run(tmp_path, {"game": "chess"})
    assert code == 1 and "not reviewable" in text
    bad = {**RECORD, "rounds": [{"hands": [["KS"], ["AS"], ["KH"]],
                                 "actions": ["pair K", "card K"]}]}
    code, text = run(tmp_path, bad)
    # located as ``usotsuki replay`` locates it: the round, the action and its text
    assert code == 1 and "weaker than" in text
    assert 'error at round 1, action 2 ("card K")' in text and "not reviewable" in text
    code, text = run(tmp_path, RECORD, "--depth", "0")
    assert code == 1 and "--depth" in text
    code, text = run(tmp_path, RECORD, "--json", str(tmp_path / "missing" / "a.json"))
    assert code == 1 and "no folder" in text
    result = RUNNER.invoke(app, ["analyse", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 1 and "cannot read" in result.output


def test_the_review_fits_80_columns_with_every_column(tmp_path: Path) -> None:
    """No column dropped, no cell cut: long names wrap, every header is there."""
    long_names = {**RECORD, "players": ["annabelle-the-long-named", "bob", "cy"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(long_names))
    narrow = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})
    result = narrow.invoke(app, ["analyse", str(path), "--depth", "30", "--seed", "4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    for header in ("player", "moves", "acc.", "?!", "??", "bluffs/calls", "chall. won",
                   "luck", "step", "move", "odds", "win", "best", "lost", "mark"):
        assert header in result.output, header
    assert "…" not in result.output  # nothing cut short


def test_mine_lists_only_your_marked_moves(tmp_path: Path) -> None:
    code, text = run(tmp_path, RECORD, "--depth", "30", "--seed", "4", "--as", "cy", "--mine")
    assert code == 0, text
    listed = text.split("Your marked moves")[1].split("odds: exact")[0]
    rows = [line for line in listed.splitlines() if line.strip()[:1].isdigit()]
    assert rows and all("You" in row for row in rows)  # cy is "You"
    code, text = run(tmp_path, RECORD, "--mine")
    assert code == 1 and "--as" in text
