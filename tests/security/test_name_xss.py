"""Names are text on every page: markup, script and template placeholders in players' names
are shown as typed, never run or parsed (issue 29's XSS attempts).

People sit down under hostile names, then leave so that stand-in bots finish the games
under those names; chromium (Playwright, as tests/e2e; its async API, so that this
process's other async tests are not disturbed) opens every page that shows a name, under
the server's real headers. Each page must show a hostile name literally, hold no element
or attribute that a name could have brought in, and report no Content Security Policy
violation (which would mean markup was injected and only the policy stopped it) and no
dialog. :data:`PAGES` lists them; a page of ``static/`` missing from it fails
:func:`test_every_page_is_checked`.
"""

from __future__ import annotations

import asyncio
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
from waits import GAME_S, wait_for

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
    its start and one in play, the last two seen from a seat this browser holds."""

    finished: dict[str, str]  # game kind -> table id
    waiting: str
    playing: str
    seats: dict[str, dict[str, Any]]  # table id -> what api.js keeps for a seat held


def _join(http: httpx.Client, invite: str, name: str) -> dict[str, Any]:
    r = http.post(f"/api/invites/{invite}/join", json={"name": name})
    assert r.status_code == 200, r.text
    joined: dict[str, Any] = r.json()
    return joined


def _table(http: httpx.Client, game: str, seats: list[str | None],
           rules: dict[str, Any]) -> dict[str, Any]:
    r = http.post("/api/tables", json={"game": game, "seats": [{"bot": b} for b in seats],
                                       "rules": rules})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def _finished(http: httpx.Client, game: str, rules: dict[str, Any]) -> str:
    """A game played to its end by stand-ins under the hostile names."""
    created = _table(http, game, [None] * 4, rules)
    tokens = [_join(http, created["invite"], name)["token"] for name in PAYLOADS[:4]]
    table = created["table_id"]
    assert http.post(f"/api/tables/{table}/start",
                     json={"token": created["host_token"]}).status_code == 200
    for token in tokens:  # each leaves: a stand-in plays on under the name
        assert http.post(f"/api/tables/{table}/leave", json={"token": token}).status_code == 204
    wait_for(lambda: http.get(f"/api/tables/{table}").json()["status"] == "finished",
             f"{game} game of stand-ins to end", GAME_S)
    return table


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[LiveServer, Games]]:
    if shutil.which(CHROMIUM) is None:  # a failure, never a skip (make browser installs it)
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make browser)")
    server = LiveServer({"reviews": ReviewService(depth=8)})
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            finished = {"bluff": _finished(http, "bluff", {"max_cards": 2, "ranks": 6}),
                        "liar": _finished(http, "liar", {"hand_size": 4})}
            seats = {}
            waiting = _table(http, "bluff", [None, None, None, "hard"], {})
            for name in PAYLOADS[4:6]:
                _join(http, waiting["invite"], name)
            mine = _join(http, waiting["invite"], PAYLOADS[6])
            seats[waiting["table_id"]] = {"seat": mine["seat"], "token": mine["token"]}
            playing = _table(http, "liar", [None, None, "sensible"], {})
            mine = _join(http, playing["invite"], PAYLOADS[0])
            other = _join(http, playing["invite"], PAYLOADS[1])
            seats[playing["table_id"]] = {"seat": mine["seat"], "token": mine["token"]}
            http.post(f"/api/tables/{playing['table_id']}/start",
                      json={"token": playing["host_token"]})
            http.post(f"/api/tables/{playing['table_id']}/leave", json={"token": other["token"]})
        yield server, Games(finished, waiting["table_id"], playing["table_id"], seats)
    finally:
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


FINISHED_SHOWS = PAYLOADS[:4]
PAGES: dict[str, Page] = {
    "home (the last name used)": Page(
        "index.html", lambda g: "/", "body[data-ready='1']", (PAYLOADS[2],),
        lambda g: {"usotsuki.name": PAYLOADS[2]}),
    **{f"{kind} table, a spectator at its end": Page(
        "table.html", lambda g, kind=kind: f"/table.html?t={g.finished[kind]}",
        "body[data-status=finished]", FINISHED_SHOWS) for kind in ("bluff", "liar")},
    "bluff table waiting, from a seat": Page(
        "table.html", lambda g: f"/table.html?t={g.waiting}", "body[data-ready='1']",
        PAYLOADS[4:6], lambda g: {"usotsuki.seats": json.dumps({g.waiting: g.seats[g.waiting]})}),
    "liar table in play, from a seat": Page(
        "table.html", lambda g: f"/table.html?t={g.playing}", "body[data-status=playing]",
        (PAYLOADS[1],),
        lambda g: {"usotsuki.seats": json.dumps({g.playing: g.seats[g.playing]})}),
    **{f"{kind} replay": Page(
        "replay.html", lambda g, kind=kind: f"/replay.html?t={g.finished[kind]}&game=0",
        "#viewer:not([hidden])", FINISHED_SHOWS) for kind in ("bluff", "liar")},
    **{f"{kind} review": Page(
        "replay.html",
        lambda g, kind=kind: f"/replay.html?t={g.finished[kind]}&game=0&review=1",
        "body[data-review=done]", FINISHED_SHOWS) for kind in ("bluff", "liar")},
}

NO_NAMES = {"rules.html": "the rules", "docs.html": "the API's reference"}
"""Pages that show no player's name."""


def test_every_page_is_checked() -> None:
    pages = {f.name for f in STATIC.glob("*.html")}
    unchecked = pages - {p.file for p in PAGES.values()} - set(NO_NAMES)
    assert not unchecked, f"pages that may show a name but are not checked: {unchecked}"


async def _visit(url: str, page: Page, stored: dict[str, str]) -> dict[str, Any]:
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
            tab = await context.new_page()
            dialogs: list[str] = []
            errors: list[str] = []
            tab.on("dialog", lambda d: dialogs.append(d.message))
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            await tab.goto(url)
            await tab.wait_for_selector(page.ready)
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
    seen = asyncio.run(_visit(server.url + page.path(games), page, page.stored(games)))
    assert seen["injected"] == [], f"{which}: elements a name brought in: {seen['injected']}"
    assert seen["violations"] == [], f"{which}: CSP violations: {seen['violations']}"
    assert seen["dialogs"] == [], f"{which}: dialogs opened: {seen['dialogs']}"
    assert seen["errors"] == [], f"{which}: errors in the page: {seen['errors']}"
    missing = [name for name in page.shows if name not in seen["text"]]
    assert not missing, f"{which}: names not shown literally: {missing}"
