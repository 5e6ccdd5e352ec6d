"""``usotsuki play liar --hints``: the odds of the current play and the expert's
suggestion at each turn, without changing the game."""

from __future__ import annotations

import io

from rich.console import Console
from typer.testing import CliRunner

from usotsuki.cli.liar_play import LiarOptions, run_liar
from usotsuki.cli.main import app


def play(hints: bool) -> str:
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, color_system=None)
    answers = iter(["auto"] * 6 + ["quit"])
    code = run_liar(LiarOptions(seed=4, hints=hints, bots="normal,hard,easy"),
                    console=console, ask=lambda _prompt: next(answers))
    assert code == 130
    return out.getvalue()


def test_hints_show_odds_and_a_suggestion_and_change_nothing() -> None:
    with_hints, without = play(True), play(False)
    assert "the expert bot suggests" in with_hints
    assert "given how people play (人の打ち方を踏まえると)" in with_hints
    assert "from the cards alone (カードだけから計算すると)" in with_hints
    assert "hint:" not in without
    kept = [line for line in with_hints.splitlines() if "hint:" not in line]
    assert kept == without.splitlines()


def test_hints_option_on_the_command_line() -> None:
    result = CliRunner().invoke(app, ["play", "liar", "--seed", "2", "--hints", "--delay", "0"],
                                input="auto\nauto\nquit\n")
    assert result.exit_code == 130, result.output
    assert "the expert bot suggests" in result.output
    assert "Traceback" not in result.output
