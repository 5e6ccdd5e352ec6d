"""Four strangers, the whole evening in the browser: they press Play now for a 4-player
Bluff game and land at one table; a fifth watches and is counted; reactions and chat
appear at the right seats; a muted player's lines disappear for the one who muted; a
resign hands the seat to a bot; the rematch starts only once every person accepted."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
from e2e_helpers import see_results, shot
from playwright.sync_api import expect

RENAME = """async (name) => {
  const me = await (await fetch("/api/me")).json();
  const r = await fetch("/api/me", { method: "PATCH", body: JSON.stringify({ name }),
    headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf } });
  if (!r.ok) throw new Error(await r.text());
}"""  # a guest's name, as the header's name chip sets it


def _play_now(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#quick-game", "bluff")
    page.select_option("#quick-players", "4")
    page.select_option("#quick-preset", "short")  # B13: a short deck, a shorter game
    page.select_option("#quick-bots", "no")
    page.click("#quick-go")


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def _lines(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#chat-log .chat-text").all_inner_texts()]


def _resign(page: Any) -> None:
    page.click("#resign")
    page.click("#resign-confirm")
    page.wait_for_selector("#bot-for-you, body[data-status=finished]")


def test_four_strangers_meet_talk_are_watched_and_control_their_table(
        new_page: Any, live_server: Any) -> None:
    people = [new_page(size=(1366, 768)), new_page(size=(1366, 768)),
              new_page(locale="ja-JP", phone=True), new_page(size=(1366, 768))]
    for page, name in zip(people, ("Aki", "Ben", "チカ", "Dan"), strict=True):
        page.goto("/")
        page.evaluate(RENAME, name)
    for page in people:
        _play_now(page)
    tables = set()
    for page in people:
        page.wait_for_url("**/table.html?t=*")
        tables.add(parse_qs(urlparse(page.url).query)["t"][0])
    assert len(tables) == 1, tables
    table_id = tables.pop()
    seat = {}
    for i, page in enumerate(people):
        page.wait_for_selector("body[data-status=playing]")
        page.wait_for_selector("#hand .card")  # a seat's own cards
        seat[i] = page.evaluate(
            f"JSON.parse(localStorage.getItem('usotsuki.seats'))['{table_id}'].seat")
    assert sorted(seat.values()) == [0, 1, 2, 3]

    # a fifth watches: no hidden card, and the players see one watcher
    watcher = new_page(size=(1366, 768))
    watcher.goto(f"/table.html?t={table_id}")
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#hand .card").count() == 0
    for page in people:
        expect(page.locator("#watchers")).to_have_attribute("data-count", "1")
    info = httpx.get(f"{live_server.url}/api/tables/{table_id}").json()
    assert info["spectators"] == 1

    # a reaction shows at the reacting seat on every page
    people[1].click("#react-nice_bluff")
    for page in (people[0], people[3], watcher):
        expect(page.locator(f"#seat-{seat[1]} .bubble.reaction")).to_contain_text("Nice bluff!")
    expect(people[2].locator(f"#seat-{seat[1]} .bubble.reaction")).to_have_count(1)

    # strangers matched by Play now may talk; a line reaches everyone at the table
    _say(people[0], "good luck all")
    for page in (people[1], people[3], watcher):
        expect(page.locator("#chat-log .chat-text").last).to_have_text("good luck all")

    # Dan mutes Ben: Ben's lines are gone for Dan, not for Aki
    _say(people[1], "I never bluff")
    expect(people[3].locator("#chat-log .chat-text").last).to_have_text("I never bluff")
    people[3].locator(f"#chat-log .chat-line[data-seat='{seat[1]}'] .mute").first.click()
    expect(people[3].locator("#muted-list li")).to_contain_text("Ben")
    assert "I never bluff" not in _lines(people[3])
    _say(people[1], "really, never")
    expect(people[0].locator("#chat-log .chat-text").last).to_have_text("really, never")
    _say(people[0], "sure, Ben")
    expect(people[3].locator("#chat-log .chat-text").last).to_have_text("sure, Ben")
    assert "really, never" not in _lines(people[3])
    shot(people[0], "50-strangers-at-one-table")

    # a resign hands the seat to a bot, told to everyone; then all resign: bots finish
    _resign(people[2])
    expect(people[0].locator("#log")).to_contain_text("resigned")
    for page in (people[0], people[1], people[3]):
        if page.get_attribute("body", "data-status") == "playing":
            _resign(page)
    for page in people:
        page.wait_for_selector("body[data-status=finished]", timeout=120_000)
        see_results(page)

    # the rematch: an offer that waits for every person
    people[0].click("#rematch")
    for page in people[1:3]:
        page.wait_for_selector("#rematch")
        page.click("#rematch")
    # three accepted: the offer waits for Dan alone, and no game starts
    expect(people[0].locator("#rematch-offer")).to_contain_text("Waiting for Dan")
    assert httpx.get(f"{live_server.url}/api/tables/{table_id}").json()["status"] == "finished"
    expect(people[3].locator("#rematch-offer")).to_be_visible()
    shot(people[3], "51-strangers-rematch-offer")
    people[3].click("#rematch")
    for page in people:
        page.wait_for_selector("body[data-status=playing]")
        page.wait_for_selector("#hand .card")  # each seat a person's again
