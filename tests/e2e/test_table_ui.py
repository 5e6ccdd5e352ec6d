"""The card table as a player meets it (issue 12): whole games on a phone with nothing to
scroll, a turn clock that runs out, a Liar record with a seed above 2^53 round-tripping
through the replay page, and a Japanese table without a word of English."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from e2e_helpers import (
    IN_VIEW,
    LATIN,
    assert_can_act,
    bluff_turn,
    create_table,
    english_left,
    liar_turn,
    play_out,
    see_results,
    shot,
    start,
)

from usotsuki import liar
from usotsuki.replay import replay_record
from usotsuki.session import LiarSession


def test_home_create_above_the_fold_and_seats_from_one(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate(IN_VIEW, "#create-button")
    assert page.locator("#clock-field").is_hidden()  # bots only: no clock to choose
    page.select_option("#seat-1", "friend")
    assert page.input_value("#turn-seconds") == "60"  # people: a minute a turn by default
    page.locator("#house-rules").evaluate("d => { d.open = true; }")
    assert page.locator("#opt-dealer option").all_inner_texts() == ["Seat 1", "Seat 2", "Seat 3"]
    shot(page, "00-home-desktop")


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_whole_game_on_a_phone_needs_no_scrolling(new_page: Any, game: str) -> None:
    page = new_page(phone=True)
    if game == "bluff":
        create_table(page, "bluff", "Mika", ["bot:random", "bot:cautious", "bot:random"],
                     {"max_cards": 1})
        turn: Any = bluff_turn
        kw: dict[str, Any] = {"challenge": 0.4}
    else:
        create_table(page, "liar", "Mika", ["bot:random", "bot:sensible"],
                     {"multi": True, "jack_back": True, "binding": True, "hand_size": 4,
                      "turn_limit": 40})
        turn, kw = liar_turn, {"doubt": 0.3}
    start(page)
    page.wait_for_selector(".turn.yours, body[data-status=finished]")
    if page.locator(".turn.yours").count():
        assert_can_act(page)
        assert page.title().startswith("▶ Your turn")  # the tab says so too
        shot(page, f"20-{game}-your-turn-phone")
    play_out(page, turn, check=assert_can_act, **kw)
    see_results(page)
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    assert page.locator("#rematch").inner_text() == "Play again with the same bots"
    shot(page, f"21-{game}-results-phone")
    page.click("#hide-results")  # the table under the results: the last reveal, on demand
    if page.locator("#reveal").count():
        page.click("#reveal-close")
    assert page.locator("#reveal").count() == 0
    if game == "bluff" or page.locator("#show-reveal").is_visible():  # Bluff ends by one
        page.click("#show-reveal")
        assert page.locator("#reveal .verdict").count() == 1
    page.click("#show-results")
    page.wait_for_selector("#results:not([hidden])")


def test_a_turn_clock_runs_out_and_a_bot_plays_that_turn(new_page: Any,
                                                         clocked_server: Any) -> None:
    page = new_page()
    base = clocked_server.url
    create_table(page, "liar", "Alice", ["friend", "bot:random"],
                 {"turn_seconds": 30, "hand_size": 5, "turn_limit": 60}, base=base)
    assert "30 s per turn" in page.inner_text("#rules-list")
    invite = parse_qs(urlparse(page.input_value("#invite-link")).query)["invite"][0]
    bob = page.context.browser.new_context()  # another person: without Alice's session
    joined = bob.request.post(f"{base}/api/invites/{invite}/join", data={"name": "Bob"})
    assert joined.ok
    bob.close()
    page.wait_for_selector("#start")
    page.click("#start")
    page.wait_for_selector("body[data-status=playing]")
    # Bob never comes: on his turn his seat counts down, and it is shown he is away.
    page.wait_for_selector(".turn.yours, #seat-1.active")
    if page.locator(".turn.yours").count():
        clock = page.locator(".turn .clock")
        who = "You ran out of time: a bot played this turn for you."
    else:
        clock = page.locator("#seat-1 .clock")
        who = "Bob ran out of time: a bot plays this turn."
        assert "away" in page.inner_text("#seat-1")
    assert re.fullmatch(r"0:(2\d|30)", clock.inner_text())
    shot(page, "22-turn-clock")
    lines = page.locator("#log li").count()
    clocked_server.clock.advance(31)
    page.wait_for_function(f"[...document.querySelectorAll('#log li')].slice({lines})"
                           f".some(li => li.textContent === {json.dumps(who)})")
    log = page.locator("#log li").all_inner_texts()[lines:]
    at = lines + log.index(who) + 1
    # the stand-in's move follows at once, in the log, under the same name (a loaded
    # machine may make the stand-in itself late: that is said too, then a move follows)
    name = "You " if who.startswith("You") else "Bob "
    page.wait_for_function(f"[...document.querySelectorAll('#log li')].slice({at})"
                           f".some(li => li.textContent.startsWith({json.dumps(name)}))")
    after = [x for x in page.locator("#log li").all_inner_texts()[at:] if "'s bot " not in x]
    assert after[0].startswith(name), after


def _large_seed_record() -> dict[str, Any]:
    """A finished Liar Game whose seed is above 2^53 and matters: rounded to a double (as
    JSON.parse does) the record no longer replays."""
    for k in range(2, 200):  # k = 2 is the first such game (found once, kept for speed)
        seed = 2**60 + 2 * k + 1
        rules = liar.LiarRules(players=3, hand_size=5, turn_limit=80)
        session = LiarSession.create(rules, seed, 1, ("Ann", "Hana (hard)", "Kenji (random)"))
        rng = random.Random(k)
        session, _ = session.deal(session.draw_chance(rng))
        while not session.is_over:
            session, _, _ = session.apply_text(
                session.format_action(session.random_action(rng)))
        record = session.record()
        assert replay_record(record)["ok"]
        if not replay_record({**record, "seed": int(float(seed))})["ok"]:
            return record
    raise AssertionError("no game where the seed's low bits matter")


def test_a_large_seed_record_round_trips_through_the_replay_page(
        new_page: Any, tmp_path: Path) -> None:
    record = _large_seed_record()
    assert record["seed"] > 2**53 and float(record["seed"]) != record["seed"]
    path = tmp_path / "liar-record.json"
    path.write_text(json.dumps(record), "utf-8")
    page = new_page()
    page.goto("/replay.html")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.locator("#notice").is_hidden()
    total = 1 + len(record["games"][0]["actions"])
    assert page.inner_text("#step") == f"Step 1 / {total}"
    assert page.locator("#moves .move").count() == total
    page.click(f"#move-{total - 1}")  # the move list jumps
    assert page.inner_text("#step") == f"Step {total} / {total}"
    assert page.locator("#replay-standings li").count() >= 1
    assert "Hana (hard)" in page.inner_text("#replay-hands")  # names kept
    page.click("#autoplay")
    assert page.get_attribute("#autoplay", "aria-pressed") == "true"  # from the start
    page.wait_for_function("Number(document.body.dataset.step) >= 1")
    page.click("#autoplay")
    shot(page, "23-replay-liar-large-seed")
    # A file that is no record says so, in words.
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#notice:not([hidden])")
    assert page.inner_text("#notice") == "This file is not a usotsuki game record."


def test_japanese_table_has_no_english_left(new_page: Any) -> None:
    page = new_page(locale="ja-JP")
    create_table(page, "liar", "花子", ["bot:random", "bot:sensible"],
                 {"multi": True, "revolution": True, "jack_back": True, "eight_cut": True,
                  "binding": True, "classes": True, "games": 2, "hand_size": 3,
                  "turn_limit": 16})
    start(page)
    page.wait_for_selector(".turn.yours, body[data-status=finished]")
    assert english_left(page) == []
    shot(page, "24-liar-table-ja")
    play_out(page, liar_turn, doubt=0.4)
    see_results(page)
    assert english_left(page) == []
    shot(page, "25-liar-results-ja")
    # Every refusal the server can give reads in Japanese, with its parameters.
    codes = ["not_found", "forbidden", "expired", "too_many_tables", "too_many_open_tables",
             "too_many_bot_games", "bad_rules", "table_cap", "seat_taken", "seats_empty",
             "table_full", "started", "not_your_turn", "illegal", "bad_record", "busy",
             "rate_limited", "never_heard_of"]
    texts = page.evaluate("""async (codes) => {
        const { errorText } = await import("/js/i18n.js");
        return codes.map(c => errorText(c, {seats: [1, 2], wait: 30, max: 4, hours: 24},
                                        "an English message"));
    }""", codes)
    assert all(not LATIN.search(x) for x in texts), texts
    assert texts[codes.index("seats_empty")] == "2, 3番席がまだ空いています。"

    bluff = new_page(locale="ja-JP", phone=True)
    create_table(bluff, "bluff", "花子", ["bot:random", "bot:random"], {"max_cards": 2})
    start(bluff)
    bluff.wait_for_selector(".turn.yours, body[data-status=finished]")
    assert english_left(bluff) == []
    shot(bluff, "26-bluff-table-ja-phone")
