"""Quick match in the browser: four people press Play now for a 4-player Bluff game and
land at one table, each in a seat of their own; a fifth watches and is counted. The
waiting view offers bots when nobody comes, and a seat is taken with them."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
from e2e_helpers import shot


def _play_now(page: Any, players: str = "4", bots: str = "ask") -> None:
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#quick-game", "bluff")
    page.select_option("#quick-players", players)
    page.select_option("#quick-bots", bots)
    page.click("#quick-go")


def _table_of(page: Any) -> str:
    page.wait_for_url("**/table.html?t=*")
    return parse_qs(urlparse(page.url).query)["t"][0]


def test_four_who_press_play_now_land_at_one_table_and_a_fifth_watches(
        new_page: Any, live_server: Any) -> None:
    people = [new_page(), new_page(), new_page(phone=True), new_page(size=(1366, 768))]
    _play_now(people[0])
    people[0].wait_for_selector("#play-facts li")
    shot(people[0], "42-play-now-waiting")
    for page in people[1:]:
        _play_now(page)
    tables = {_table_of(page) for page in people}
    assert len(tables) == 1
    table_id = tables.pop()
    seats = set()
    for page in people:
        page.wait_for_selector("body[data-status=playing]")
        page.wait_for_selector("#hand .card")  # a seat's own cards: not a spectator
        seats.add(page.evaluate(
            f"JSON.parse(localStorage.getItem('usotsuki.seats'))['{table_id}'].seat"))
    assert seats == {0, 1, 2, 3}
    shot(people[2], "43-quick-match-table-phone")

    watcher = new_page()
    watcher.goto(f"/table.html?t={table_id}")
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#hand .card").count() == 0

    deadline = time.monotonic() + 30
    while (info := httpx.get(f"{live_server.url}/api/tables/{table_id}").json())[
            "spectators"] != 1:  # the watcher's socket is counted once it is open
        assert time.monotonic() < deadline, f"the watcher was not counted: {info}"
        time.sleep(0.1)
    assert all(s["taken"] and s["bot"] is None for s in info["seats"])


def test_the_home_page_offers_play_now_and_bots_after_the_wait(
        new_page: Any, live_server: Any) -> None:
    live_server.app.state.matchmaker.policy = type(live_server.app.state.matchmaker.policy)(
        offer_seconds=0.0)
    try:
        page = new_page(locale="ja-JP")
        page.goto("/")
        page.wait_for_selector("body[data-ready='1']")
        assert page.inner_text("#quick h2") == "すぐに遊ぶ"
        assert page.locator("#quick-rated").is_disabled()  # a guest: rated is for accounts
        shot(page, "41-play-now-home-ja")
        _play_now(page, players="3")
        page.wait_for_selector("#play-offer:not([hidden])")
        shot(page, "44-play-now-bots-offered-ja")
        page.click("#play-bots")
        table_id = _table_of(page)
        page.wait_for_selector("#hand .card")
        info = httpx.get(f"{live_server.url}/api/tables/{table_id}").json()
        assert [s["bot"] is None for s in info["seats"]].count(True) == 1
        assert info["players"] == 3
    finally:
        live_server.app.state.matchmaker.policy = type(live_server.app.state.matchmaker.policy)()
