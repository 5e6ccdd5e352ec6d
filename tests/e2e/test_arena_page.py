"""The bot arena's page: an outside bot that sought a game (and slept through it:
stand-ins played its turns) is listed with the house level it met, its rating's
interval and its win share against that level, in English and Japanese; its profile
links back to the arena. Reached from the home page."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from conftest import LiveServer
from e2e_helpers import shot

from usotsuki.server.config import Settings


@pytest.fixture(scope="module")
def arena_server() -> Iterator[LiveServer]:
    live = LiveServer()
    settings: Settings = live.app.state.lobby.settings
    settings.arena_turn_seconds = 0.05  # the bot never acts: stand-ins play at once
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def arena_bot(arena_server: LiveServer) -> dict[str, Any]:
    """A bot account whose one rated arena game was played to its end."""
    with httpx.Client(base_url=arena_server.url, timeout=30) as http:
        csrf = {"X-CSRF-Token": http.get("/api/me").json()["csrf"]}
        me = http.post("/api/account/signup", headers=csrf,
                       json={"username": "Sleeper", "password": "a long password"}).json()
        csrf = {"X-CSRF-Token": me["csrf"]}
        assert http.post("/api/account/bot", headers=csrf).status_code == 200
        token = http.post("/api/account/tokens", headers=csrf,
                          json={"label": "e2e", "scopes": ["play"]}).json()["token"]
        http.cookies.clear()
        sought = http.post("/api/bot/seek", headers={"Authorization": f"Bearer {token}"},
                           json={"players": 2, "preset": "short"})
        assert sought.json()["state"] == "seated", sought.text
        deadline = time.monotonic() + 60  # its game ends (stand-ins) and is kept
        while len(http.get("/api/arena/bluff").json()["entries"]) < 2:
            assert time.monotonic() < deadline, "the arena game was not kept in 60 s"
            time.sleep(0.1)
    return {"id": me["id"]}


def test_the_arena_page_lists_bots_with_intervals_and_win_shares(
        browser: Any, arena_server: LiveServer, arena_bot: dict[str, Any]) -> None:
    context = browser.new_context(base_url=arena_server.url, locale="en-US",
                                  viewport={"width": 1366, "height": 768})
    context.set_default_timeout(30_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/")
        page.click("a[href='/arena']")
        page.wait_for_selector("body[data-ready='1']")
        rows = page.locator("#board-rows tr")
        assert rows.count() == 2
        mine = page.locator(f"#board-rows tr[data-player='{arena_bot['id']}']")
        house = page.locator("#board-rows tr[data-kind='house']")
        assert "Sleeper" in mine.inner_text() and "(house)" in house.inner_text()
        assert "vs easy" in page.inner_text("#board-head")
        cells = mine.locator("td").all_inner_texts()
        low, high = (int(x) for x in cells[3].split("–"))
        assert low < int(cells[2].rstrip("?")) < high and cells[4] == "1"
        assert cells[5] in ("0%", "100%") and cells[6:] == ["–", "–", "–"]
        shot(page, "arena-en")
        page.set_viewport_size({"width": 390, "height": 844})  # a phone: the board scrolls
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1366, "height": 768})
        page.click("#lang-switch")
        assert page.inner_text("h1") == "ボットアリーナ"
        assert "対やさしい" in page.inner_text("#board-head")
        shot(page, "arena-ja")
        mine.locator("a").click()
        page.wait_for_selector("body[data-ready='1'] .arena-rating a")
        assert page.get_attribute(".arena-rating a", "href") == "/arena?game=bluff"
        assert errors == []
    finally:
        context.close()
