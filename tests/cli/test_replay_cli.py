"""``usotsuki replay FILE [--json]`` through Typer's ``CliRunner`` (RULES.md Part 5).

Exit status 0 when the record replays completely, 1 when it is malformed or an action is
illegal; malformed input is reported, never a traceback, in both output modes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from usotsuki import __version__
from usotsuki.cli.main import app

RUNNER = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
RUNNER_80 = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})
H3 = [["2S"], ["3S"], ["4S"]]


def write(tmp_path: Path, content: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def bluff(rounds: list[Any], players: int = 3, **rules: Any) -> dict[str, Any]:
    return {"game": "bluff", "players": players, "rules": rules, "rounds": rounds}


def replay(path: Path, *options: str) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["replay", str(path), *options])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed: {result.exception!r}")
    assert "Traceback" not in result.stdout
    return result.exit_code, result.stdout


def replay_streams(path: Path, *options: str) -> tuple[int, str, str]:
    """The exit status, standard output and standard error, kept apart."""
    result = RUNNER.invoke(app, ["replay", str(path), *options])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed: {result.exception!r}")
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def replay_json(path: Path) -> tuple[int, dict[str, Any]]:
    code, out = replay(path, "--json")
    lines = out.splitlines()
    assert len(lines) == 1, out[:300]
    report: dict[str, Any] = json.loads(lines[0])
    return code, report


# --- --json: exit codes and the object ---------------------------------------------------


def test_replay_json_exits_0_for_a_complete_replay(tmp_path: Path) -> None:
    code, report = replay_json(write(tmp_path, bluff([{"hands": H3,
                                                       "actions": ["card A", "challenge"]}])))
    assert code == 0 and report["ok"] is True and report["error"] is None
    assert report["game"] == "bluff" and report["to_move"] == 2 and len(report["legal"]) == 326


def test_replay_json_exits_0_for_an_unfinished_game(tmp_path: Path) -> None:
    code, report = replay_json(write(tmp_path, bluff([])))
    assert code == 0 and report["finished"] is False and report["to_move"] == 1


def test_replay_json_exits_0_for_a_finished_game(tmp_path: Path) -> None:
    rec = bluff([{"hands": [["2S"], ["3S"]], "actions": ["card A", "challenge"]}], players=2,
                max_cards=1)
    code, report = replay_json(write(tmp_path, rec))
    assert code == 0 and report["finished"] is True and report["standings"] == [[0], [1]]


def test_replay_json_exits_1_for_an_illegal_action_and_still_prints(tmp_path: Path) -> None:
    code, report = replay_json(write(tmp_path, bluff([{"hands": H3, "actions": ["challenge"]}])))
    assert code == 1 and report["ok"] is False
    assert report["error"]["round"] == 0 and report["error"]["index"] == 0
    assert report["error"]["action"] == "challenge" and report["error"]["message"]


MALFORMED: dict[str, Any] = {
    "bad json": b'{"game": "bluff",',
    "empty file": b"",
    "not utf-8": b'{"game": "bluff", "players": 3, "rounds": [], "x": "\xff"}',
    "utf-16": json.dumps(bluff([])).encode("utf-16"),
    "unknown game": {"game": "poker"},
    "not an object": [1, 2, 3],
    "bad rules": bluff([], max_card=3),
    "bad card": bluff([{"hands": [["2S"], ["ZZ"], ["4S"]], "actions": []}]),
    "non-string action": bluff([{"hands": H3, "actions": [{"call": "pair 7"}]}]),
    "deep nesting": b"[" * 50_000 + b"]" * 50_000,
    "deep action": ('{"game": "bluff", "players": 3, "rounds": [{"hands": [["2S"], ["3S"], '
                    '["4S"]], "actions": [' + "[" * 988 + "]" * 988 + "]}]}").encode(),
    "lone surrogate action": b'{"game": "bluff", "players": 3, "rounds": [{"hands": '
                             b'[["2S"], ["3S"], ["4S"]], "actions": ["\\ud800"]}]}',
    "lone surrogate game": b'{"game": "\\udfff"}',
    "NaN": b'{"game": "bluff", "players": NaN, "rounds": []}',
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_replay_json_malformed_input_exits_1_without_a_traceback(tmp_path: Path,
                                                                 name: str) -> None:
    code, report = replay_json(write(tmp_path, MALFORMED[name]))
    assert code == 1 and report["ok"] is False and report["error"]["message"]


@pytest.mark.parametrize("name", list(MALFORMED))
def test_replay_account_malformed_input_exits_1_without_a_traceback(tmp_path: Path,
                                                                    name: str) -> None:
    code, out, err = replay_streams(write(tmp_path, MALFORMED[name]))
    assert code == 1 and "error" in err and "error" not in out  # errors go to stderr


def test_replay_json_missing_file_is_a_fault_with_game_null(tmp_path: Path) -> None:
    code, report = replay_json(tmp_path / "missing.json")
    assert code == 1 and report["game"] is None
    assert report["error"]["round"] is None and report["error"]["index"] is None
    code, _, err = replay_streams(tmp_path / "missing.json")
    assert code == 1 and "error" in err


def test_replay_json_a_directory_is_a_fault(tmp_path: Path) -> None:
    code, report = replay_json(tmp_path)
    assert code == 1 and report["ok"] is False


def test_replay_json_prints_utf8_text(tmp_path: Path) -> None:
    rec = bluff([{"hands": [["2\u2660"], ["3S"], ["4S"]], "actions": ["pair\u3000\u2660"]}])
    code, report = replay_json(write(tmp_path, rec))
    assert code == 1 and report["error"]["action"] == "pair\u3000\u2660"


def test_replay_account_prints_record_text_literally(tmp_path: Path) -> None:
    path = write(tmp_path, bluff([{"hands": H3, "actions": ["[/x] [bold]"]}]))
    code, _, err = replay_streams(path)
    assert code == 1 and "[/x] [bold]" in err


# --- The readable account ----------------------------------------------------------------


def test_replay_account_mentions_each_verdict_and_the_standings() -> None:
    path = Path(__file__).resolve().parent.parent / "golden" / \
        "bluff_b2_max_cards_two_full_game.json"
    result = RUNNER_80.invoke(app, ["replay", str(path)])
    code, out = result.exit_code, result.stdout
    assert code == 0 and all(len(line) <= 80 for line in out.splitlines())
    for text in ("card 5", "three 7", "two-pair 7 6", "pair A", "true", "false", "is out",
                 "Finished", "seat 2"):
        assert text in out, text
    assert out.count("false") >= 3 and out.count("true") >= 2
    # every call of every round, not only the last one challenged
    assert re.search(r"^Round 1 \(dealer seat 0\): seat 1 card 3 · seat 2 card 5$", out, re.M)
    assert re.search(r"^  seat 0 challenges: false, seat 2 takes a card$", out, re.M)
    # a player who is out is left out of later rounds' hands, never shown as "-"
    assert re.search(r"^  hands: seat 0 AS\* · seat 2 KS KH$", out, re.M)
    assert " - " not in out and "seat 1 -" not in out


def test_replay_account_of_an_unfinished_game_names_who_moves(tmp_path: Path) -> None:
    code, out = replay(write(tmp_path, bluff([{"hands": H3, "actions": ["card 2"]}])))
    assert code == 0 and "seat 2" in out and "Unfinished" in out


def test_replay_account_reports_the_error_and_where(tmp_path: Path) -> None:
    path = write(tmp_path, bluff([{"hands": H3, "actions": ["pair 7", "pair 7"]}]))
    code, _, err = replay_streams(path)
    assert code == 1  # located as play counts: round 1, the second action
    assert "error" in err and "round 1" in err and "action 2" in err and "pair 7" in err


# --- --help and --version ----------------------------------------------------------------


def test_help_lists_the_commands() -> None:
    result = RUNNER.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "replay" in result.stdout and "play" in result.stdout
    assert "--version" in result.stdout


def test_replay_help_describes_json() -> None:
    result = RUNNER.invoke(app, ["replay", "--help"])
    assert result.exit_code == 0 and "--json" in result.stdout and "Part 5" in result.stdout


def test_version_prints_the_package_version() -> None:
    result = RUNNER.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"usotsuki {__version__}"


def test_replay_without_a_file_is_a_usage_error() -> None:
    result = RUNNER.invoke(app, ["replay"])
    assert result.exit_code == 2


# --- The account speaks as play does (issue 10 item 8) -----------------------------------


def named(record: dict[str, Any], *names: str) -> dict[str, Any]:
    return {**record, "players": list(names)}


def test_replay_account_counts_from_1_and_uses_the_records_names(tmp_path: Path) -> None:
    rec = named(bluff([{"hands": H3, "actions": ["card A", "challenge"]},
                       {"hands": [["5S"], ["6S", "7S"], ["8S"]], "actions": ["card 2"]}]),
                "Ann", "Bob", "Cy")
    code, out, err = replay_streams(write(tmp_path, rec))
    assert code == 0 and err == ""
    assert "Round 1 (dealer Ann): Bob card A · Cy challenges: false, Bob takes a card" in out
    assert "Round 2 (dealer Bob): Cy card 2 · (in play)" in out
    assert "seat" not in out
    assert "Unfinished: Ann to move; legal: challenge, or one of 325 stronger calls from " \
           "card 3." in out


def test_replay_account_of_a_liar_game_counts_games_from_1(tmp_path: Path) -> None:
    path = Path(__file__).resolve().parent.parent / "conformance" / \
        "liar_l9_lie_draws_whole_field.json"
    record = json.loads(path.read_text())
    players = record["players"] if isinstance(record["players"], int) else len(record["players"])
    names = [f"P{s}" for s in range(players)]
    code, out, _ = replay_streams(write(tmp_path, {**record, "players": names}))
    assert code == 0 and "Game 1:" in out and "Game 0" not in out
    # every play with the cards truly played, then the doubt, on the field's line
    assert re.search(r"^P0 3S as 3 · P1 4H as 4 · P2 7H\* as 9 · P0 doubts: a lie, P2 draws 3$",
                     out, re.M)
    assert "{" not in out  # legal in words, never a Python dict
    assert re.search(r"legal: (play \d|pass|doubt|accept|give)", out) or "Finished" in out


def test_replay_account_says_liar_legal_in_words(tmp_path: Path) -> None:
    from usotsuki.cli.account import legal_text

    assert legal_text("liar", {"pass": True, "doubt": True, "accept": False, "give": False,
                               "play": {"counts": [1, 2, 3], "rates": [7]}}) == \
        "play 1 to 3 cards as 7, pass, doubt"
    assert legal_text("liar", {"pass": False, "doubt": False, "accept": False, "give": False,
                               "play": {"counts": [1], "rates": list(range(13))}}) == \
        "play 1 card as any rate"
    assert legal_text("bluff", ["challenge"]) == "only challenge"


def test_replay_account_says_the_location_once(tmp_path: Path) -> None:
    rec = named(bluff([{"hands": H3, "actions": ["card A", "challenge"]},
                       {"hands": [["2S", "5D"], ["3S"], ["XX"]], "actions": []}]),
                "Ann", "Bob", "Cy")
    code, out, err = replay_streams(write(tmp_path, rec))
    assert code == 1
    assert err.startswith("error at round 2: Cy: 'XX' is not a card"), err
    assert "round 2: round" not in err and "round 1:" not in err
    assert "legal" not in out and "326" not in out  # nothing legal after a bad deal
    assert "Unfinished" not in out


def test_replay_account_at_an_illegal_action_says_what_was_legal(tmp_path: Path) -> None:
    rec = named(bluff([{"hands": H3, "actions": ["card A", "card 2"]}]), "Ann", "Bob", "Cy")
    code, out, err = replay_streams(write(tmp_path, rec))
    assert code == 1
    assert 'error at round 1, action 2 ("card 2"): card 2 is weaker than card A' in err
    assert "Legal there for Cy: challenge, or one of 313 stronger calls from pair 2." in out


def test_replay_json_is_untouched_by_the_account(tmp_path: Path) -> None:
    rec = named(bluff([{"hands": H3, "actions": ["pair 7", "pair 7"]}]), "Ann", "Bob", "Cy")
    code, report = replay_json(write(tmp_path, rec))
    assert code == 1 and report["error"]["round"] == 0 and report["error"]["index"] == 1
