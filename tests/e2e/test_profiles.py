"""Where a player finds what it has done: its profile (games with filters and paging,
places, win shares, favourite house rules, each game one click from its replay and its
review), the leaderboard, and the Replays page listing your games first; at 1366x768
and a phone's width, in English and Japanese.

One guest plays two short games against bots through the UI (a Bluff game and a Liar
Game) on a server of this module's own; each test then opens the pages in a browser
context holding that guest's cookie, at the size it checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer
from e2e_helpers import (
    bluff_turn,
    create_table,
    english_left,
    liar_turn,
    play_out,
    see_results,
    shot,
)

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
BLUFF_RULES = {"max_cards": 1, "ranks": 6}  # out at the first loss, the 24-card deck
LIAR_RULES = {"hand_size": 3}
WIDER = """width => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > width + 1)
    .map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`)"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server of this module's own; its reviews search 40 playouts a move (the review
    page is what is checked here, the analysis has its own tests)."""
    from usotsuki.server.review_service import ReviewService

    live = LiveServer(deal_seed=29, reviews=ReviewService(depth=40))
    live.start()
    yield live
    live.stop()


class Pages:
    """Browser contexts holding the guest's session, each page watched for errors."""

    def __init__(self, browser: Any, server: LiveServer, state: Any = None) -> None:
        self.browser, self.server, self.state = browser, server, state
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, size: dict[str, Any] = DESKTOP, locale: str = "en-US") -> Any:
        context = self.browser.new_context(base_url=self.server.url, locale=locale,
                                           storage_state=self.state, **size)
        context.set_default_timeout(30_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", lambda msg: self.errors.append(msg.text)
                if msg.type == "error" and "Content Security Policy" in msg.text else None)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        assert not self.errors, f"JavaScript errors in the page: {self.errors}"


@pytest.fixture(scope="module")
def guest(browser: Any, server: LiveServer) -> Iterator[dict[str, Any]]:
    """A guest who played a Bluff game and a Liar Game against bots: its identity
    (``/api/me``) and the browser state that carries its session."""
    pages = Pages(browser, server)
    page = pages.open()
    create_table(page, "bluff", "Tomoko", ["bot:easy", "bot:normal"], BLUFF_RULES)
    play_out(page, bluff_turn, limit_s=120, challenge=0.4)
    see_results(page)
    create_table(page, "liar", "Tomoko", ["bot:easy", "bot:normal"], LIAR_RULES)
    play_out(page, liar_turn, limit_s=120, doubt=0.2)
    me = page.request.get("/api/me").json()
    state = page.context.storage_state()
    pages.close()
    yield {"me": me, "state": state}


@pytest.fixture
def pages(browser: Any, server: LiveServer, guest: dict[str, Any]) -> Iterator[Pages]:
    opened = Pages(browser, server, guest["state"])
    yield opened
    opened.close()


def ready(page: Any, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("body[data-ready='1']")


def listed(page: Any) -> list[str]:
    """The games on show: "game table number" each."""
    return page.locator("#games-list li.played").evaluate_all(
        "els => els.map(e => `${e.dataset.game} ${e.dataset.table} ${e.dataset.number}`)")


def refilter(page: Any, select: str, value: str) -> None:
    page.select_option(select, value)
    page.wait_for_function("!document.body.dataset.loading")


def fits(page: Any, width: int) -> None:
    """Nothing wider than the screen: no sideways scrolling."""
    assert page.evaluate(WIDER, width) == []


def test_profile_shows_games_places_and_house_rules(pages: Pages,
                                                    guest: dict[str, Any]) -> None:
    me = guest["me"]
    page = pages.open()
    ready(page, f"/players/{me['id']}")
    api = page.request.get(f"/api/players/{me['id']}").json()
    assert page.inner_text("#player-name") == "Tomoko"
    assert page.inner_text("#player-kind") == "Guest"
    assert page.locator("#player-you").is_visible()
    for game, rules_words in (("bluff", "Cards to be out 1 · Deck 9–A"),
                              ("liar", "Hand size 3")):
        stats = page.locator(f"#stats-{game}")
        assert stats.locator(".games-played").inner_text() == "1"
        won = api["games"][game]["places"][0] == 1
        assert stats.locator(".win-share").inner_text() == ("100%" if won else "0%")
        assert stats.locator(".places li").count() == 1  # the one place it had
        assert rules_words in stats.locator(".favourites").inner_text()
        assert "Not rated yet" in stats.locator(".rating-cell").inner_text()
    assert len(listed(page)) == 2
    assert page.locator("#games-list li.played").first.get_attribute("data-game") == "liar"
    fits(page, 1366)
    shot(page, "29-profile-1366")


def test_profile_filters_and_pages_the_games(pages: Pages, guest: dict[str, Any]) -> None:
    me = guest["me"]
    page = pages.open()
    ready(page, f"/players/{me['id']}")
    everything = listed(page)
    refilter(page, "#filter-game", "bluff")
    assert [g.split()[0] for g in listed(page)] == ["bluff"]
    assert "game=bluff" in page.url  # a filtered list can be shared
    refilter(page, "#filter-game", "")
    # each result filter shows the games with that result, as the server counts them
    for result in ("win", "loss"):
        refilter(page, "#filter-result", result)
        wanted = page.request.get(f"/api/players/{me['id']}/games?result={result}").json()
        assert len(listed(page)) == len(wanted["games"])
        places = page.locator("#games-list .place").all_inner_texts()
        assert all(p.startswith("1st") == (result == "win") for p in places)
    refilter(page, "#filter-result", "")
    liar_rules = page.locator("#filter-rules option", has_text="Hand size 3")
    refilter(page, "#filter-rules", liar_rules.get_attribute("value") or "")
    assert [g.split()[0] for g in listed(page)] == ["liar"]
    # a page at a time: the address's ?limit=1 shows one, "More games" the next
    ready(page, f"/players/{me['id']}?limit=1")
    assert len(listed(page)) == 1
    page.click("#more-games")
    page.wait_for_function("document.querySelectorAll('#games-list li.played').length === 2")
    assert listed(page) == everything
    assert page.locator("#more-games").is_hidden()


def test_a_game_opens_its_replay_and_its_review(pages: Pages, guest: dict[str, Any]) -> None:
    page = pages.open()
    ready(page, f"/players/{guest['me']['id']}")
    first = page.locator("#games-list li.played").first
    game, table, number = first.get_attribute("data-game"), first.get_attribute("data-table"), \
        first.get_attribute("data-number")
    first.locator(".replay-link").click()
    page.wait_for_url(f"**/replay.html?t={table}&game={number}")
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.locator("#moves li").count() > 1
    assert game == "liar" and page.locator("#replay-field").count() == 1
    page.go_back()
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#games-list li.played").first.locator(".review-link").click()
    page.wait_for_url(f"**/replay.html?t={table}&game={number}&review=1")
    page.wait_for_selector("body[data-review=done]", timeout=60_000)
    assert page.locator("#review-chart").count() == 1


def test_replays_page_lists_your_games_before_the_file_picker(
        pages: Pages, guest: dict[str, Any]) -> None:
    page = pages.open()
    ready(page, "/replay.html")
    page.wait_for_selector("#my-games:not([hidden])")
    items = page.locator("#my-games-list li.played")
    assert items.count() == 2
    assert items.first.get_attribute("data-game") == "liar"  # newest first
    # your games come first, the file picker after
    assert page.evaluate("""() => !!(document.getElementById('my-games')
        .compareDocumentPosition(document.getElementById('open-panel'))
        & Node.DOCUMENT_POSITION_FOLLOWING)""")
    assert page.get_attribute("#my-profile", "href") == f"/players/{guest['me']['id']}"
    shot(page, "29-replays-1366")
    items.nth(1).locator(".replay-link").click()
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.locator("#my-games").is_hidden()  # a game opened: it alone


def test_someone_else_sees_no_private_game(browser: Any, server: LiveServer,
                                           guest: dict[str, Any]) -> None:
    """The games were at invite-only tables: a stranger's view of the profile lists none,
    and says so."""
    stranger = Pages(browser, server)
    try:
        page = stranger.open()
        ready(page, f"/players/{guest['me']['id']}")
        assert page.inner_text("#player-name") == "Tomoko"
        assert page.locator("#player-you").is_hidden()
        assert listed(page) == []
        assert page.locator("#no-games").is_visible()
    finally:
        stranger.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_profile_and_replays_fit_a_phone(pages: Pages, guest: dict[str, Any],
                                         locale: str) -> None:
    page = pages.open(PHONE, locale)
    ready(page, f"/players/{guest['me']['id']}")
    page.wait_for_selector("#games-list li.played")
    fits(page, 390)
    lang = locale[:2]
    if lang == "ja":  # every word Japanese (the name is the player's own)
        assert page.inner_text("#player-kind") == "ゲスト"
        assert "ゲーム数" in page.inner_text("#stats")
        assert english_left(page, "#stats") == []
        assert english_left(page, "#games") == []
    shot(page, f"29-profile-phone-{lang}")
    ready(page, "/replay.html")
    page.wait_for_selector("#my-games:not([hidden])")
    fits(page, 390)
    shot(page, f"29-replays-phone-{lang}")


def test_unknown_player_is_told(pages: Pages) -> None:
    page = pages.open()
    ready(page, "/players/no-such-player")
    assert page.inner_text("#notice") == "There is no such player."


@pytest.fixture(scope="module")
def rated_player(browser: Any, server: LiveServer) -> Iterator[dict[str, Any]]:
    """An account that played two rated Bluff games against bots (a rated table: the
    rated switch at creation, a turn clock on)."""
    pages = Pages(browser, server)
    page = pages.open()
    ready(page, "/")
    csrf = page.request.get("/api/me").json()["csrf"]
    signed = page.request.post("/api/account/signup", headers={"X-CSRF-Token": csrf},
                               data={"username": "Haruka", "password": "seven tall pines"})
    assert signed.ok, signed.text()
    for _ in range(2):
        create_table(page, "bluff", "Haruka", ["bot:easy", "bot:normal"],
                     {**BLUFF_RULES, "rated": True})
        play_out(page, bluff_turn, limit_s=120, challenge=0.4)
        see_results(page)
    me = page.request.get("/api/me").json()
    state = page.context.storage_state()
    pages.close()
    yield {"me": me, "state": state}


def test_rating_graph_is_drawn_from_the_rating_history(browser: Any, server: LiveServer,
                                                       rated_player: dict[str, Any]) -> None:
    me = rated_player["me"]
    pages = Pages(browser, server, rated_player["state"])
    try:
        page = pages.open()
        ready(page, f"/players/{me['id']}")
        history = page.request.get(f"/api/players/{me['id']}/ratings?game=bluff").json()
        assert len(history) == 2
        rating = page.request.get(f"/api/players/{me['id']}").json()["games"]["bluff"]["rating"]
        cell = page.inner_text("#stats-bluff .rating-cell")
        assert cell.startswith(str(round(rating["shown"])))
        assert ("provisional" in cell) == rating["provisional"]
        graph = page.locator("#rating-graph-bluff")
        # one point per rated game, the line from the rating before the first
        assert graph.locator("circle").count() == 2
        line = (graph.locator("polyline").get_attribute("points") or "").split()
        assert len(line) == 3
        summary = graph.get_attribute("aria-label") or ""
        assert summary == (f"Rating from {round(history[0]['before'])} to "
                           f"{round(history[-1]['after'])} over 2 rated games")
        # a point higher up is a higher rating: the SVG's y falls as the rating rises
        ys = [float(p.split(",")[1]) for p in line]
        ratings = [history[0]["before"], *(h["after"] for h in history)]
        for i in range(2):
            if ratings[i + 1] != ratings[i]:
                assert (ys[i + 1] < ys[i]) == (ratings[i + 1] > ratings[i])
        assert page.locator("#games-list .badge.rated").count() == 2
        assert page.locator("#games-list .delta").count() == 2
        shot(page, "29-profile-rated-1366")
    finally:
        pages.close()


@pytest.mark.parametrize("size", ["1366", "phone"])
def test_leaderboard_lists_the_rated_and_links_their_profiles(
        browser: Any, server: LiveServer, rated_player: dict[str, Any], size: str) -> None:
    pages = Pages(browser, server, rated_player["state"])
    try:
        page = pages.open(DESKTOP if size == "1366" else PHONE)
        ready(page, "/leaderboard.html?game=bluff")
        # two rated games are too few to settle: the settled list has nobody yet
        assert page.locator("#board-empty").is_visible()
        page.check("#with-provisional")
        page.wait_for_selector("#board-rows tr")
        assert "provisional=1" in page.url
        answer = page.request.get("/api/leaderboard/bluff?provisional=true").json()["entries"]
        rows = page.locator("#board-rows tr")
        assert rows.count() == len(answer) == 3  # Haruka and the two bot levels
        assert [r.get_attribute("data-player") for r in rows.all()] == \
            [e["player_id"] for e in answer]
        haruka = page.locator(f"#board-rows tr[data-player='{rated_player['me']['id']}']")
        assert haruka.locator(".provisional").count() == 1
        assert "Bot (easy)" in page.inner_text("#board-rows")
        fits(page, 1366 if size == "1366" else 390)
        shot(page, f"29-leaderboard-{size}")
        # a bot level has its profile too, rated from its games against people
        page.locator("#board-rows tr[data-player='bot:bluff:easy'] a").click()
        page.wait_for_selector("body[data-ready='1'] #rating-graph-bluff")
        assert page.inner_text("#player-name") == "Bot (easy)"
        assert page.inner_text("#player-kind") == "Bot"
        page.go_back()
        page.wait_for_selector("#board-rows tr")
        page.click("#tab-liar")
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("#tab-liar", "aria-current") == "page"
        assert page.locator("#board-empty").is_visible()  # nobody rated at the Liar Game
        page.go_back()
        page.wait_for_selector("#board-rows tr")
        haruka.locator("a").click()
        page.wait_for_url(f"**/players/{rated_player['me']['id']}")
        page.wait_for_selector("#rating-graph-bluff")
    finally:
        pages.close()


def test_leaderboard_in_japanese_on_a_phone(browser: Any, server: LiveServer,
                                           rated_player: dict[str, Any]) -> None:
    pages = Pages(browser, server, rated_player["state"])
    try:
        page = pages.open(PHONE, "ja-JP")
        ready(page, "/leaderboard.html?game=bluff&provisional=1")
        page.wait_for_selector("#board-rows tr")
        assert page.is_checked("#with-provisional")
        assert "ボット（やさしい）" in page.inner_text("#board-rows")
        assert english_left(page, "main") == ["Haruka"]  # the account's own name
        fits(page, 390)
        shot(page, "29-leaderboard-phone-ja")
    finally:
        pages.close()


def test_a_name_is_shown_as_text_never_as_markup(browser: Any, server: LiveServer) -> None:
    """A name that looks like markup is shown as it is typed, on the profile and in the
    page's title, and runs nothing."""
    pages = Pages(browser, server)
    try:
        page = pages.open()
        ready(page, "/")
        me = page.request.get("/api/me").json()
        name = '<img src=x onerror=pwned=1>'
        renamed = page.request.patch("/api/me", headers={"X-CSRF-Token": me["csrf"]},
                                     data={"name": name})
        assert renamed.ok, renamed.text()
        ready(page, f"/players/{me['id']}")
        assert page.inner_text("#player-name") == name
        assert page.title().startswith(name)
        assert page.locator("main img").count() == 0
        assert page.evaluate("typeof pwned === 'undefined'")
    finally:
        pages.close()


def test_a_stranger_reads_the_rating_but_not_the_private_games(
        browser: Any, server: LiveServer, rated_player: dict[str, Any]) -> None:
    """Haruka's rated games were at invite-only tables: someone else reads the rating and
    its graph (public, as on the leaderboard) but none of the games."""
    stranger = Pages(browser, server)
    try:
        page = stranger.open()
        ready(page, f"/players/{rated_player['me']['id']}")
        assert page.locator("#stats-bluff .games-played").inner_text() == "0"
        assert page.locator("#stats-bluff .rating-number").count() == 1
        assert page.locator("#rating-graph-bluff circle").count() == 2
        assert listed(page) == []
    finally:
        stranger.close()
