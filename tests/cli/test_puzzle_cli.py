"""``usotsuki puzzle``: a puzzle shown as its seat sees it, answers checked, the rating
(Glicko-2) and best streak kept in the user's data file; ``usotsuki puzzles pack``."""

from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from usotsuki.analysis import puzzle_book
from usotsuki.cli.main import app
from usotsuki.cli.puzzle import run_puzzles

RUNNER = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})


def _run(tmp_path: Path, args: list[str], lines: list[str]) -> tuple[int, str]:
    result = RUNNER.invoke(app, args, input="".join(f"{x}\n" for x in lines),
                           env={"XDG_DATA_HOME": str(tmp_path)})
    return result.exit_code, result.output


def _progress(tmp_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tmp_path / "usotsuki" / "puzzles.json").read_text())
    return data


def test_a_rated_puzzle_in_the_terminal(tmp_path: Path) -> None:
    p = puzzle_book.load("bluff")[0]
    code, out = _run(tmp_path, ["puzzle", "bluff", "--id", p["id"]], ["pair Z", p["best"]])
    assert code == 0, out
    assert f"Puzzle {p['id']}" in out and "Your hand:" in out
    assert "is not a rank" in out and "Try again." in out  # bad notation: asked again
    assert f"Right: {p['best']}" in out and "Your puzzle rating (bluff):" in out
    for name in p["record"]["players"]:  # the seats are "You" and "Seat n", not the
        assert name not in out  # record's names (the bots' levels)
    saved = _progress(tmp_path)
    assert saved["ratings"]["bluff"]["rating"] > 1500
    assert saved["puzzles"][p["id"]]["rating"] < p["rating"]
    assert saved["seen"]["bluff"] == [p["id"]]


def test_a_wrong_answer_shows_the_best_and_lowers_the_rating(tmp_path: Path) -> None:
    p = puzzle_book.load("liar")[0]
    wrong = next(o["action"] for o in p["options"] if o["action"] != p["best"])
    code, out = _run(tmp_path, ["puzzle", "liar", "--id", p["id"]], [wrong])
    assert code == 0, out
    assert "Not this time" in out and f"The best move was {p['best']}" in out
    assert "field" in out and "stock" in out  # the Liar Game's table, as in play
    assert _progress(tmp_path)["ratings"]["liar"]["rating"] < 1500


def test_a_streak_ends_at_the_first_miss_and_keeps_the_best(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, no_color=True)
    answers = 0

    def ask(prompt: str) -> str:  # right twice, then a wrong move
        nonlocal answers
        answers += 1
        shown = re.findall(r"Puzzle (\S+) ·", out.getvalue())[-1]
        p = puzzle_book.find(shown)
        assert p is not None
        wrong = next(o["action"] for o in p["options"] if o["action"] != p["best"])
        return p["best"] if answers <= 2 else wrong

    path = tmp_path / "p.json"
    assert run_puzzles("bluff", streak=True, console=console, ask=ask, path=path) == 0
    text = out.getvalue()
    assert text.count("Right:") == 2 and "Streak over: 2 solved (best 2)." in text
    assert "streak 2" in text  # the header counts the streak
    assert "Your puzzle rating" not in text  # a streak is unrated
    assert json.loads(path.read_text())["best_streak"]["bluff"] == 2


def test_quit_and_unknown_ids(tmp_path: Path) -> None:
    code, out = _run(tmp_path, ["puzzle", "liar"], ["quit"])
    assert code == 0 and "Puzzle " in out
    code, out = _run(tmp_path, ["puzzle", "liar", "--id", "nope"], [])
    assert code == 2 and "No puzzle nope" in out
    code, out = _run(tmp_path, ["puzzle", "chess"], [])
    assert code == 2 and "not a game" in out


def test_pack_merges_builds_sorted_once(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text('{"id":"b2-0-1","source_game":2}\n{"source_game":3,"none":true}\n')
    b.write_text('{"id":"b10-0-1","source_game":10}\n{"id":"b2-0-1","source_game":2}\n')
    out = tmp_path / "p.jsonl.gz"
    result = RUNNER.invoke(app, ["puzzles", "pack", str(out), str(a), str(b)])
    assert result.exit_code == 0 and "2 puzzles" in result.output
    with gzip.open(out, "rt") as f:
        assert [json.loads(x) for x in f] == [{"id": "b10-0-1"}, {"id": "b2-0-1"}]
