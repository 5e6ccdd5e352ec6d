"""Names are text on every page: markup, script and template placeholders in players' names
are shown as typed, never run or parsed (issue 29's XSS attempts).

Guests take hostile names (``PATCH /api/me``) and sit down under them, then leave so that
stand-in bots finish the games under those names (two accounts, whose names are their
usernames, play a rated game for the leaderboard); the browser is one of those guests
(the name chip of every page shows its name). Chromium (Playwright, as tests/e2e; its
async API, so that this process's other async tests are not disturbed) opens every page
that shows a name, under the server's real headers. Each page must show its hostile
names literally, hold no element or attribute that a name could have brought in, and
report no Content Security Policy violation (which would mean markup was injected and
only the policy stopped it) and no
dialog. :data:`PAGES` lists them; a page of ``static/`` missing from it fails
:func:`test_every_page_is_checked`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import LiveServer
from identity_helpers import Browser
from sqlalchemy import insert
from waits import GAME_S, wait_for
from websockets.sync.client import connect

from usotsuki.server.player_tables import ratings
from usotsuki.server.review_service import ReviewService

async_api = pytest.importorskip("playwright.async_api")

CHROMIUM = os.environ.get("USOTSUKI_CHROMIUM", "/usr/bin/chromium")
STATIC = Path(__file__).resolve().parents[2] / "src/usotsuki/server/static"

PAYLOADS = (
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    '"><script>alert(1)</script>',
    "<style>*{color:red}</style>",
    "<a href=javascript:alert(1)>a",
    "</title><b id=xss>{name}",
    "{challenger} & &amp; &lt;",
)
"""Hostile names (each within the 32 characters a name may have)."""

FOUND_INJECTED = """() => {
  const found = [];
  for (const e of document.querySelectorAll("*")) {
    for (const a of e.attributes) if (/^on/i.test(a.name)) found.push(`${e.tagName} ${a.name}`);
    const tag = e.tagName.toLowerCase();
    if (tag === "img" && e.getAttribute("src") === "x") found.push("img src=x");
    if (tag === "svg" && e.hasAttribute("onload")) found.push("svg onload");
    if (tag === "script" && /alert/.test(e.textContent)) found.push("script");
    if (tag === "style" && /color:red/.test(e.textContent)) found.push("style");
    if (tag === "a" && /^\\s*javascript:/i.test(e.getAttribute("href") || "")) found.push("a href");
    if (e.id === "xss") found.push("b#xss");
  }
  return found;
}"""

SHOWN_TEXT = """() => [document.body.innerText,
  ...[...document.querySelectorAll("input")].map((i) => i.value)].join("\\n")"""

WATCH = """window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));"""


@dataclass
class Games:
    """What the pages are opened on: finished games of each kind, a table waiting for
    its start and one in play, the last two seen from a seat this browser holds; a
    hostile guest's id (a profile), the browser's own player and its session cookie."""

    finished: dict[str, str]  # game kind -> table id
    waiting: str
    playing: str
    seats: dict[str, dict[str, Any]]  # table id -> what api.js keeps for a seat held
    guest: str
    me: str
    cookie: str
    bot: str  # an outside bot's id


VIEWER = PAYLOADS[0]
"""The browser's own name (a guest's): every page's name chip shows it."""


def _named(url: str, name: str, username: str | None = None) -> Browser:
    """A browser of its own (a cookie jar): a guest named ``name``, then the account
    ``username`` if given."""
    browser = Browser(httpx.Client(base_url=url, timeout=30))
    r = browser.send("PATCH", "/api/me", {"name": name})
    assert r.status_code in (200, 204), r.text
    if username is not None:
        r = browser.sign_up(username)
        assert r.status_code in (200, 201), r.text
    browser.refresh()
    return browser


def _join(browser: Browser, invite: str, name: str) -> dict[str, Any]:
    r = browser.send("POST", f"/api/invites/{invite}/join", {"name": name})
    assert r.status_code == 200, r.text
    joined: dict[str, Any] = r.json()
    return joined


def _table(host: Browser, game: str, seats: list[str | None], rules: dict[str, Any],
           **more: Any) -> dict[str, Any]:
    r = host.send("POST", "/api/tables", {"game": game, "seats": [{"bot": b} for b in seats],
                                          "rules": rules, **more})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def _played_out(host: Browser, created: dict[str, Any], people: list[Browser],
                names: tuple[str, ...]) -> str:
    """The people join under ``names``, the game starts and each leaves: stand-ins play
    it to its end under the names."""
    tokens = [_join(b, created["invite"], name)["token"]
              for b, name in zip(people, names, strict=True)]
    table = created["table_id"]
    assert host.send("POST", f"/api/tables/{table}/start",
                     {"token": created["host_token"]}).status_code == 200
    for browser, token in zip(people, tokens, strict=True):
        r = browser.send("POST", f"/api/tables/{table}/leave", {"token": token})
        assert r.status_code == 204, r.text
    wait_for(lambda: host.client.get(f"/api/tables/{table}").json()["status"] == "finished",
             f"the game at {table} to end", GAME_S)
    return table


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[LiveServer, Games]]:
    if shutil.which(CHROMIUM) is None:  # a failure, never a skip (make browser installs it)
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make browser)")
    server = LiveServer({"reviews": ReviewService(depth=8)})
    sockets = contextlib.ExitStack()
    try:
        guests = [_named(server.url, name) for name in PAYLOADS[:4]]
        viewer = guests[0]
        accounts = [_named(server.url, name, username) for name, username in
                    ((PAYLOADS[4], "o'brien"), (PAYLOADS[6], "d'arcy"))]
        finished = {game: _played_out(guests[0], _table(guests[0], game, [None] * 4, rules),
                                      guests, PAYLOADS[:4])
                    for game, rules in (("bluff", {"max_cards": 2, "ranks": 6}),
                                        ("liar", {"hand_size": 4}))}
        # a rated game: both accounts are on the leaderboard under their names
        rated = _table(accounts[0], "bluff", [None, None], {"max_cards": 2, "ranks": 6},
                       rated=True, turn_seconds=30)
        _played_out(accounts[0], rated, accounts, (PAYLOADS[4], PAYLOADS[6]))
        seats = {}
        waiting = _table(guests[0], "bluff", [None, None, None, "hard"], {})
        for browser, name in zip(guests[1:3], PAYLOADS[1:3], strict=True):
            _join(browser, waiting["invite"], name)
        mine = _join(viewer, waiting["invite"], VIEWER)
        seats[waiting["table_id"]] = {"seat": mine["seat"], "token": mine["token"]}
        playing = _table(guests[0], "liar", [None, None, "sensible"], {})
        mine = _join(viewer, playing["invite"], VIEWER)
        other = _join(guests[1], playing["invite"], PAYLOADS[1])
        seats[playing["table_id"]] = {"seat": mine["seat"], "token": mine["token"]}
        guests[0].send("POST", f"/api/tables/{playing['table_id']}/start",
                       {"token": playing["host_token"]})
        guests[1].send("POST", f"/api/tables/{playing['table_id']}/leave",
                       {"token": other["token"]})
        # a public table whose host has a hostile name, present (a socket): the lobby lists it
        public = _table(guests[2], "bluff", [None, None], {}, visibility="public")
        present = _join(guests[2], public["invite"], PAYLOADS[2])
        sockets.enter_context(connect(f"{server.url.replace('http', 'ws', 1)}/ws/tables/"
                                      f"{public['table_id']}?token={present['token']}"))
        wait_for(lambda: any(t["table_id"] == public["table_id"] for t in
                             guests[2].client.get("/api/lobby").json()["tables"]),
                 "the public table in the lobby", GAME_S)
        # an outside bot (an account marked a bot) on the arena's board
        bot = _named(server.url, PAYLOADS[5], "o'neil")
        assert bot.send("POST", "/api/account/bot", {}).status_code == 200
        with server.app.state.store.engine.begin() as conn:
            conn.execute(insert(ratings).values(player_id=bot.me["id"], game="arena:bluff",
                                                mu=26.0, sigma=7.0, shown=1560.0, games=3,
                                                updated=0.0))
        assert viewer.cookie is not None
        yield server, Games(finished, waiting["table_id"], playing["table_id"], seats,
                            guests[1].me["id"], viewer.me["id"], viewer.cookie,
                            bot.me["id"])
    finally:
        sockets.close()
        server.stop()


@dataclass(frozen=True)
class Page:
    """A page to open: the file of ``static/`` it is, its path from the games, what it
    must have shown (a selector), the names it shows (each must read literally), and
    what localStorage holds first."""

    file: str
    path: Callable[[Games], str]
    ready: str
    shows: tuple[str, ...]
    stored: Callable[[Games], dict[str, str]] = lambda games: {}


CHIP = "#name-chip:not([hidden])"
FINISHED_SHOWS = PAYLOADS[:4]
PAGES: dict[str, Page] = {
    "home (the last name used)": Page(
        "index.html", lambda g: "/", f"body[data-ready='1'] {CHIP}", (VIEWER,),
        lambda g: {"usotsuki.name": PAYLOADS[2]}),
    "the lobby (a public table's host)": Page(
        "lobby.html", lambda g: "/lobby", "#open-list li", (PAYLOADS[2],)),
    "quick match, waiting (the name chip)": Page(
        "play.html", lambda g: "/play.html?game=bluff&players=8&preset=standard&bots=no",
        CHIP, (VIEWER,)),
    "puzzles (the name chip)": Page("puzzles.html", lambda g: "/puzzles.html", CHIP, (VIEWER,)),
    "rules (the name chip)": Page("rules.html", lambda g: "/rules.html", CHIP, (VIEWER,)),
    "a lesson (the name chip)": Page("learn.html", lambda g: "/learn.html?lesson=liar-play",
                                     f"body[data-ready='1'] {CHIP}", (VIEWER,)),
    **{f"{kind} table, a spectator at its end": Page(
        "table.html", lambda g, kind=kind: f"/table.html?t={g.finished[kind]}",
        f"body[data-status=finished] {CHIP}", FINISHED_SHOWS) for kind in ("bluff", "liar")},
    "bluff table waiting, from a seat": Page(
        "table.html", lambda g: f"/table.html?t={g.waiting}", f"body[data-ready='1'] {CHIP}",
        PAYLOADS[:3], lambda g: {"usotsuki.seats": json.dumps({g.waiting: g.seats[g.waiting]})}),
    "liar table in play, from a seat": Page(
        "table.html", lambda g: f"/table.html?t={g.playing}",
        f"body[data-status=playing] {CHIP}", PAYLOADS[:2],
        lambda g: {"usotsuki.seats": json.dumps({g.playing: g.seats[g.playing]})}),
    **{f"{kind} replay": Page(
        "replay.html", lambda g, kind=kind: f"/replay.html?t={g.finished[kind]}&game=0",
        f"body:has(#viewer:not([hidden])) {CHIP}",
        FINISHED_SHOWS) for kind in ("bluff", "liar")},
    **{f"{kind} review": Page(
        "replay.html",
        lambda g, kind=kind: f"/replay.html?t={g.finished[kind]}&game=0&review=1",
        f"body[data-review=done] {CHIP}", FINISHED_SHOWS) for kind in ("bluff", "liar")},
    "your games (the Replays page)": Page(
        "replay.html", lambda g: "/replay.html", f"body[data-my-games='1'] {CHIP}",
        PAYLOADS[:4]),
    "another guest's profile": Page(
        "player.html", lambda g: f"/players/{g.guest}", f"body[data-ready='1'] {CHIP}",
        PAYLOADS[:4]),
    "the viewer's own profile": Page(
        "player.html", lambda g: f"/players/{g.me}", f"body[data-ready='1'] {CHIP}",
        PAYLOADS[:4]),
    "an outside bot's profile (the challenge form)": Page(
        "player.html", lambda g: f"/players/{g.bot}", "#challenge-form", ("o'neil",)),
    "the arena's board": Page(
        "arena.html", lambda g: "/arena?game=bluff", f"body[data-ready='1'] {CHIP}",
        (VIEWER, "o'neil")),
    "leaderboard": Page(
        "leaderboard.html", lambda g: "/leaderboard.html?game=bluff&provisional=1",
        f"body[data-ready='1'] {CHIP}", (VIEWER, "o'brien", "d'arcy")),
    "account": Page("account.html", lambda g: "/account", f"body[data-ready='1'] {CHIP}",
                    (VIEWER,)),
}

NO_NAMES = {"docs.html": "the API's reference (no name chip)"}
"""Pages that show no player's name."""


def test_every_page_is_checked() -> None:
    pages = {f.name for f in STATIC.glob("*.html")}
    unchecked = pages - {p.file for p in PAGES.values()} - set(NO_NAMES)
    assert not unchecked, f"pages that may show a name but are not checked: {unchecked}"


async def _visit(url: str, page: Page, stored: dict[str, str], cookie: str) -> dict[str, Any]:
    async with async_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=["--no-sandbox", "--disable-gpu"])
        try:
            context = await browser.new_context(locale="en-US")
            context.set_default_timeout(60_000)
            script = WATCH + "".join(
                f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});"
                for k, v in stored.items())
            await context.add_init_script(script)
            await context.add_cookies([{"name": "usotsuki_session", "value": cookie,
                                        "domain": "127.0.0.1", "path": "/"}])
            tab = await context.new_page()
            dialogs: list[str] = []
            errors: list[str] = []
            tab.on("dialog", lambda d: dialogs.append(d.message))
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            await tab.goto(url)
            await tab.wait_for_selector(page.ready)
            if await tab.locator("#reveal-results").count():  # a game that ended on a
                await tab.click("#reveal-results")  # challenge or doubt: its reveal first
                await tab.wait_for_selector("#results:not([hidden])")
            return {"text": await tab.evaluate(SHOWN_TEXT),
                    "injected": await tab.evaluate(FOUND_INJECTED),
                    "violations": await tab.evaluate("window.__violations"),
                    "dialogs": dialogs, "errors": errors}
        finally:
            await browser.close()


@pytest.mark.timeout(240)
@pytest.mark.parametrize("which", list(PAGES))
def test_hostile_names_are_shown_as_text(site: tuple[LiveServer, Games], which: str) -> None:
    server, games = site
    page = PAGES[which]
    seen = asyncio.run(_visit(server.url + page.path(games), page, page.stored(games),
                              games.cookie))
    assert seen["injected"] == [], f"{which}: elements a name brought in: {seen['injected']}"
    assert seen["violations"] == [], f"{which}: CSP violations: {seen['violations']}"
    assert seen["dialogs"] == [], f"{which}: dialogs opened: {seen['dialogs']}"
    assert seen["errors"] == [], f"{which}: errors in the page: {seen['errors']}"
    missing = [name for name in page.shows if name not in seen["text"]]
    assert not missing, f"{which}: names not shown literally: {missing}"
