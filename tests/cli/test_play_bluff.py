"""Terminal play of Bluff, driven as a user would through the Typer app."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from usotsuki.cli.bluff_play import run_bluff
from usotsuki.cli.main import app
from usotsuki.replay import replay_file

runner = CliRunner()


def play(args: list[str], answers: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["play", "bluff", "--delay", "0", *args],
                           input="\n".join(answers) + "\n")
    return result.exit_code, result.output


def test_whole_game_to_standings_and_saved_record(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # Always challenge when possible, else open with the weakest call: the game must end.
    answers = (["help", "odds", "nonsense 7", "card 2", "challenge"] * 200)
    code, out = play(["--players", "3", "--seed", "7", "--save", str(save)], answers)
    assert code == 0, out
    assert "Game over" in out
    assert "is not a call type" in out  # bad input is rejected with a reason ...
    assert "Your hand:" in out  # ... and the game goes on
    report = replay_file(save)
    assert report["ok"] and report["finished"]
    assert sorted(s for place in report["standings"] for s in place) == [0, 1, 2]


def test_illegal_call_is_explained_and_asked_again(tmp_path: Path) -> None:
    # With this seed's deals (docs/fairness.md) and the issue-11 bots, seat 1's first turn
    # comes with "card 9" as the current call.
    code, out = play(["--players", "3", "--seed", "1", "--seat", "1"],
                     ["card 2", "card 2", "four A", "card 2", "quit"])
    assert "card 2 is weaker than card 9; call something stronger (B5, B7)" in out
    assert out.count("current call: card 9") == 1  # asked again without redrawing
    assert code == 130


def test_end_of_input_leaves_cleanly_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    code, out = play(["--players", "4", "--seed", "3", "--save", str(save)], ["pair 7"])
    assert code == 0 and "Left the game (end of input)" in out  # not Ctrl-C's 130
    assert "Traceback" not in out
    record = json.loads(save.read_text())
    assert record["game"] == "bluff" and record["players"][0] == "You"
    assert replay_file(save)["ok"]


def test_ctrl_c_saves_the_record_so_far(tmp_path: Path) -> None:
    save = tmp_path / "interrupted.json"
    asked = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 2:
            raise KeyboardInterrupt
        return "challenge" if len(asked) == 2 else "card 5"

    assert run_bluff(players=3, seat=0, seed=11, save=save, ask=ask) == 130
    report = replay_file(save)
    assert report["ok"] and not report["finished"]


def test_bad_options_give_a_clear_error_on_stderr_not_a_traceback() -> None:
    for args, message in ((["--players", "9"],  # the rule cited, and where to read it
                           "players must be 2 to 8, not 9 (B1) (see 'usotsuki rules B1')\n"),
                          (["--players", "3", "--seat", "5"], "--seat must be 0 to 2, not 5\n"),
                          (["--players", "3", "--bots", "genius"], "unknown bluff bot")):
        result = runner.invoke(app, ["play", "bluff", *args])
        assert result.exit_code == 1 and result.stdout == ""
        assert result.stderr.startswith(message) or message in result.stderr


def test_same_seed_same_game(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    answers = ["card 3", "challenge"] * 100
    play(["--players", "5", "--seed", "42", "--save", str(a)], answers)
    play(["--players", "5", "--seed", "42", "--save", str(b)], answers)
    assert a.read_text() == b.read_text()
