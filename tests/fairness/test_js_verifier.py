"""The browser's verifier (``static/js/fairness.js``, Web Crypto, written from
docs/fairness.md alone) run by node on the records the Python verifier is tested on: the
shared fixtures, the spec's test vector, 1,000 random games of each game (and changed
copies, found at the same place by both), and games the server played."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from fairness_fixtures import EXPECTED, RECORDS
from test_fairness_games import random_bluff, random_liar

from usotsuki.cards import format_cards
from usotsuki.fairness import Contribution, FairDeals, Fairness, verify_record

STATIC = Path(__file__).parents[2] / "src" / "usotsuki" / "server" / "static" / "js"
RUNNER = Path(__file__).with_name("verify_with_js.mjs")
NODE = shutil.which("node")
GAMES = 1000

pytestmark = pytest.mark.skipif(NODE is None, reason="node (v20 or later) is not installed")


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's module as an ES module file node loads as such (.mjs)."""
    path = tmp_path_factory.mktemp("js") / "fairness.mjs"
    shutil.copyfile(STATIC / "fairness.js", path)
    return path


def run_js(module: Path, *args: str) -> Any:
    done = subprocess.run([str(NODE), str(RUNNER), str(module), *args], capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def verify_all(module: Path, records: list[dict[str, Any]], tmp_path: Path) -> list[Any]:
    listed = tmp_path / "records.json"
    listed.write_text(json.dumps(records), encoding="utf-8")
    answers: list[Any] = run_js(module, "--list", str(listed))
    return answers


def where(answer: dict[str, Any]) -> tuple[Any, ...]:
    error = answer["error"]
    return (None,) if error is None else (error["place"], error["round"], error["seat"])


def python_answer(record: dict[str, Any]) -> tuple[Any, ...]:
    mismatch = verify_record(record)
    return (None,) if mismatch is None else (mismatch.place, mismatch.number, mismatch.seat)


def test_the_shared_fixtures_get_the_expected_answers(module: Path) -> None:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    answers = run_js(module, *(str(RECORDS / name) for name in sorted(expected)))
    for name, want in expected.items():
        got = answers[name]
        assert got["verified"] is want["verified"], (name, got)
        if not want["verified"]:
            assert where(got) == (want["place"], want["round"], want["seat"]), (name, got)
            assert got["error"]["message"]


def test_the_spec_test_vector(module: Path, tmp_path: Path) -> None:
    """docs/fairness.md's vector: Bluff round 0 of four one-card hands, and round 1 with
    ``ranks: 6`` (its hands in another order: sets); two hands swapped: the first named."""
    fair = Fairness.committed("local", 0, bytes(range(32)).hex(), [Contribution(0, "ff" * 32)])
    assert fair.commitment == "59e49da7870515524c3c9b5a70b32c634b7af76d0d018641a69a8d888184f856"
    first = FairDeals.of(fair).bluff_hands(0, 6, [2, 1, 3])  # (the vector gives round 1)
    short = {"game": "bluff", "players": 3, "rules": {"ranks": 6}, "fairness": fair.to_json(),
             "rounds": [{"hands": [format_cards(hand).split() for hand in first]},
                        {"hands": [["AC", "QS"], ["AH"], ["KC", "TD", "KS"]]}]}
    full = {"game": "bluff", "players": 4, "rules": {}, "fairness": fair.to_json(),
            "rounds": [{"hands": [["QC"], ["8D"], ["7D"], ["2D"]]}]}
    swapped = copy.deepcopy(full)
    hands = swapped["rounds"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    answers = verify_all(module, [full, swapped, short], tmp_path)
    assert [where(a) for a in answers] == [(None,), ("hand", 0, 0), (None,)]


@pytest.mark.parametrize("make", [random_bluff, random_liar], ids=["bluff", "liar"])
def test_a_thousand_random_games_and_changed_copies_agree_with_python(
        module: Path, tmp_path: Path, make: Any) -> None:
    rng = random.Random(135)
    records = [make(rng, number) for number in range(GAMES)]
    changed = [changed_copy(r, rng) for r in records[::10]]
    answers = verify_all(module, records + changed, tmp_path)
    for record, answer in zip(records, answers, strict=False):
        assert answer == {"verified": True, "error": None}, record["fairness"]
    for record, answer in zip(changed, answers[GAMES:], strict=True):
        assert where(answer) == python_answer(record) != (None,), record["fairness"]


def changed_copy(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with one thing changed: two dealt cards swapped, the seed, a
    contribution or the secret."""
    record = copy.deepcopy(record)
    fair = record["fairness"]
    choice = rng.randrange(4)
    if choice == 1 and record["game"] == "liar":
        record["seed"] += 1
    elif choice == 2 and any(c["value"] for c in fair["contributions"]):
        given = next(c for c in fair["contributions"] if c["value"])
        given["value"] = given["value"][::-1]
    elif choice == 3:
        fair["secret"] = fair["secret"][::-1]
    else:
        entries = record["rounds" if record["game"] == "bluff" else "games"]
        entry = entries[rng.randrange(len(entries))]
        places = [hand for hand in entry["hands"] if hand]
        if record["game"] == "liar" and entry["stock"]:
            places.append(entry["stock"])
        if len(places) >= 2:
            a, b = rng.sample(places, 2)
            i, j = rng.randrange(len(a)), rng.randrange(len(b))
            a[i], b[j] = b[j], a[i]
        else:
            fair["secret"] = fair["secret"][::-1]
    return record


def test_games_the_server_played(module: Path, tmp_path: Path) -> None:
    """Bots' games through the server's write path (a Bluff game, a Liar match): both
    verifiers accept their records."""
    from fastapi.testclient import TestClient

    from usotsuki.server.app import create_app

    tables = [("bluff", {"max_cards": 2}, 1), ("liar", {"classes": True, "hand_size": 4}, 2)]
    records = []
    with TestClient(create_app(bot_delay=0)) as c:
        for game, rules, games in tables:
            made = c.post("/api/tables", json={"game": game, "rules": rules, "games": games,
                                               "seats": [{"bot": "random"}] * 3}).json()
            tid = made["table_id"]
            c.post(f"/api/tables/{tid}/start", json={"token": made["host_token"]})
            ends = time.monotonic() + 180  # (bots think at the lowest CPU priority)
            while c.get(f"/api/tables/{tid}").json()["status"] != "finished":
                assert time.monotonic() < ends, f"the {game} game of bots did not end"
                time.sleep(0.05)
            records.append(c.get(f"/api/tables/{tid}/games/0/record").json())
    assert [python_answer(r) for r in records] == [(None,), (None,)]
    assert [where(a) for a in verify_all(module, records, tmp_path)] == [(None,), (None,)]
