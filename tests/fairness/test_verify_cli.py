"""``usotsuki verify``'s answers and exit statuses for what a user may hand it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fairness_fixtures import RECORDS
from typer.testing import CliRunner

from usotsuki.cli.main import app

runner = CliRunner()


def verify(path: Path, *flags: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["verify", *flags, str(path)])
    return result.exit_code, result.stdout, result.stderr


def test_verified_and_differs_in_words() -> None:
    code, out, _ = verify(RECORDS / "liar_match_valid.json")
    assert code == 0 and "verified" in out
    code, out, err = verify(RECORDS / "liar_stock_altered.json")
    assert code == 1 and out == ""
    assert "differs: game 0: the stock differs from the derived one at position 2" in err


@pytest.mark.parametrize(("content", "message"), [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe", "UTF-8"),
    (b"[1, 2]", "a record is a JSON object"),
    (json.dumps({"game": "chess", "rounds": []}).encode(), "'game' must be"),
    (json.dumps({"game": "bluff", "players": 3, "rounds": [{"hands": [["ZZ"]]}],
                 "fairness": json.loads((RECORDS / "bluff_valid.json").read_text())
                 ["fairness"]}).encode(), "'ZZ' is not a card"),
])
def test_what_cannot_be_checked_exits_2(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    code, out, err = verify(path)
    assert code == 2 and out == ""
    assert "cannot be verified" in err and message in err
    code, out, _ = verify(path, "--json")
    answer = json.loads(out)
    assert code == 2 and answer["verified"] is False and message in answer["error"]["message"]


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = verify(tmp_path / "none.json")
    assert code == 2 and "cannot read" in err


def test_fair_deals_in_a_record_that_does_not_replay(tmp_path: Path) -> None:
    record = json.loads((RECORDS / "bluff_valid.json").read_text())
    record["rounds"][-1]["actions"].append("card 2")  # after the game ended
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    code, out, _ = verify(path, "--json")
    answer = json.loads(out)
    assert code == 1 and answer["error"]["place"] == "replay"
    assert answer["error"]["round"] == len(record["rounds"]) - 1
