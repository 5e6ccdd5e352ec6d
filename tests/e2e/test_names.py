"""Names at a table never collide: two people who both call themselves Mika sit as "Mika"
and "mika 2", a spectator's log tells them apart, and each is "You" on their own screens
(the table, the replay and the review)."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from conftest import LiveServer
from e2e_helpers import bluff_turn, create_table, see_results, shot, start

# "mika 2 challenges Mika." (Bluff's log, English): who challenged whom.
CHALLENGE = re.compile(r"^(.+?) challenges (.+?)\.")


def _play_out(pages: list[Any], rng: random.Random, limit_s: float = 90.0) -> None:
    deadline = time.monotonic() + limit_s
    while pages[0].get_attribute("body", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in pages:
            if page.locator(".turn.yours").count() and page.get_attribute(
                    "body", "data-status") == "playing":
                bluff_turn(page, rng, challenge=0.5)
                acted = True
        if not acted:
            time.sleep(0.05)


def _replay_names(page: Any, base: str, table: str, review: bool = False) -> list[str]:
    page.goto(f"{base}/replay.html?t={table}&game=0" + ("&review=1" if review else ""))
    page.wait_for_selector("#viewer:not([hidden])")
    return [page.inner_text(f"#replay-seat-{seat} strong") for seat in range(3)]


def test_two_mikas_are_told_apart_and_each_is_you(new_page: Any,
                                                  review_server: LiveServer) -> None:
    base = review_server.url
    host = new_page()
    table = create_table(host, "bluff", "Mika", ["friend", "bot:normal"], {"max_cards": 2},
                         base=base)
    friend = new_page()
    friend.goto(f"{base}/table.html?t={table}")
    invite = host.evaluate("JSON.parse(localStorage.getItem('usotsuki.seats'))")[table]["invite"]
    friend.goto(f"{base}/table.html?invite={invite}")
    friend.wait_for_selector("#join-form")
    friend.fill("#join-name", "mika")
    friend.click("#join")
    friend.wait_for_selector("#lobby-seats .badge.you")
    # the second Mika sits as "mika 2"; the bot keeps its own name
    host.wait_for_selector("#start")
    seats = [s["name"] for s in host.request.get(f"{base}/api/tables/{table}").json()["seats"]]
    assert seats == ["Mika", "mika 2", "Yuki (normal)"]
    assert "mika 2" in friend.inner_text("#lobby-seats")
    start(host)
    friend.wait_for_selector("body[data-status=playing], body[data-status=finished]")

    _play_out([host, friend], random.Random(5))
    for page in (host, friend):
        page.wait_for_selector("body[data-status=finished]")
        see_results(page)

    # A spectator arriving at the end reads the whole log: one Mika never the other.
    watcher = new_page()
    watcher.goto(f"{base}/table.html?t={table}")
    watcher.wait_for_selector("body[data-status=finished]")
    # (the log is told from the table's events: both players out, the game is all there)
    watcher.wait_for_function("[...document.querySelectorAll('#log li')]"
                              ".filter((li) => / is out\\./.test(li.innerText)).length >= 2")
    log = watcher.locator("#log li").all_inner_texts()
    assert any("mika 2" in line for line in log), log
    assert any(re.search(r"\bMika\b(?! 2)", line) for line in log), log
    # every challenge names two people, each by a name only they bear at the table
    challenges = [m.groups() for line in log if (m := CHALLENGE.match(line))]
    assert challenges, log
    assert all(a != b and {a, b} <= set(seats) for a, b in challenges), challenges
    assert "You" not in " ".join(log)  # a spectator is nobody at the table
    shot(watcher, "40-two-mikas-spectator", axe=False)

    # On each one's own screens, their seat is "You" and the other Mika is named.
    assert _replay_names(host, base, table) == ["You", "mika 2", "Yuki (normal)"]
    assert _replay_names(friend, base, table) == ["Mika", "You", "Yuki (normal)"]
    assert _replay_names(watcher, base, table) == ["Mika", "mika 2", "Yuki (normal)"]
    moves = friend.locator("#moves li").all_inner_texts()
    assert any(re.search(r"\d+\s+You: ", m) for m in moves), moves[:5]

    _replay_names(friend, base, table, review=True)
    friend.wait_for_selector("body[data-review=done]", timeout=60_000)
    cards = friend.locator(".review-card h3").all_inner_texts()
    assert [c.strip() for c in cards] == ["Mika", "You", "Yuki (normal)"]
    shot(friend, "41-review-you", axe=False)


def test_a_terminal_records_person_is_you_in_the_replay(new_page: Any, tmp_path: Any) -> None:
    """A record of ``usotsuki play`` names its person "You": the replay and its sentences
    speak to them, in either language."""
    record = {"game": "bluff", "players": ["You", "Kenji (hard)", "Yuki (easy)"],
              "rules": {"max_cards": 2, "ranks": 2},
              "rounds": [{"hands": [["KS"], ["AS"], ["KH"]],
                          "actions": ["card K", "pair K", "challenge"]},  # seat 0 loses
                         {"hands": [["KS", "KH"], ["AS"], ["AH"]],
                          "actions": ["card A", "three A", "challenge"]},
                         {"hands": [["KS", "KH"], ["AS"], ["AH", "AD"]],
                          "actions": ["card A", "pair A", "challenge"]},
                         {"hands": [["KS", "KH"], ["AS"], []],
                          "actions": ["card A", "four A", "challenge"]},
                         {"hands": [["KS", "KH"], ["AS", "AD"], []],
                          "actions": ["card K", "four K", "challenge"]}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    for locale, you, challenged in (("en-US", "You", "You challenged Kenji (hard)."),
                                    ("ja-JP", "あなた", None)):
        page = new_page(locale=locale)
        page.goto("/replay.html")
        page.wait_for_selector("body[data-ready='1']")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector("#viewer:not([hidden])")
        page.click("#last")
        assert page.inner_text("#replay-seat-0 strong") == you
        assert page.inner_text("#replay-seat-1 strong") != you
        if challenged:  # the last round: seat 0 challenges seat 1's "four K"
            assert challenged in page.inner_text("#replay-reveal")
