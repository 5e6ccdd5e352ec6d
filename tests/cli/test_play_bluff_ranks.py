"""``usotsuki play bluff --ranks N`` and tournament ``ranks=R``: the short deck (B13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from usotsuki.bluff import parse_rules_text
from usotsuki.cli.main import app
from usotsuki.core.errors import InvalidRules
from usotsuki.replay import replay_file

runner = CliRunner()


def test_b13_play_bluff_with_a_short_deck(tmp_path: Path) -> None:
    save = tmp_path / "short.json"
    answers = ["card 2", "card 9", "challenge"] * 200
    result = runner.invoke(app, ["play", "bluff", "--delay", "0", "--players", "3", "--seed",
                                 "4", "--ranks", "6", "--save", str(save)],
                           input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "Short deck: 9 to A, 24 cards (B13)" in result.output
    assert "card 2 is not a call of this game" in result.output  # refused, asked again
    record = json.loads(save.read_text())
    assert record["rules"]["ranks"] == 6
    report = replay_file(save)
    assert report["ok"] and report["finished"]


@pytest.mark.parametrize("args", [["--ranks", "1"], ["--ranks", "14"],
                                  ["--ranks", "2", "--players", "3", "--max-cards", "3"]])
def test_b13_bad_ranks_exit_1_with_a_message(args: list[str]) -> None:
    result = runner.invoke(app, ["play", "bluff", "--delay", "0", *args], input="quit\n")
    assert result.exit_code == 1 and ("ranks" in result.output or "B2" in result.output)


def test_b13_tournament_rules_take_ranks() -> None:
    assert parse_rules_text("max_cards=2, ranks=6", 3).ranks == 6
    with pytest.raises(InvalidRules, match="ranks"):
        parse_rules_text("ranks=20", 3)
