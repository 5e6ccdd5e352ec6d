"""Driving the table through the UI as a person would: clicks and keys only."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")

ANY_TURN = ".turn.yours, body[data-status=finished]"


def create_table(page: Any, game: str, name: str, seats: list[str],
                 options: dict[str, Any] | None = None, base: str = "") -> str:
    """Fill the home page and create the table; ``seats`` are the other seats: "friend" or
    "bot:LEVEL"; ``options`` the house rules by name, and ``games``, ``turn_seconds`` and
    ``rated`` and ``hints``. Returns the table id from the URL of the table page."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.check(f"input[name=game][value={game}]")
    page.fill("#name", name)
    for _ in range(10):  # each click removes a seat; a click that does not ends the wait
        if page.locator("#seats li").count() <= len(seats) + 1:
            break
        page.locator("#seats li").last.get_by_role("button").click()
    for _ in range(10):
        if page.locator("#seats li").count() >= len(seats) + 1:
            break
        page.click("#add-seat")
    assert page.locator("#seats li").count() == len(seats) + 1, "the seats would not change"
    for i, seat in enumerate(seats, start=1):
        page.select_option(f"#seat-{i}", seat)
    if options:  # the house rules fold away under the Create button
        page.locator("#house-rules").evaluate("d => { d.open = true; }")
    for key, value in (options or {}).items():
        box = page.locator(f"#opt-{key}")
        if key == "games":
            box = page.locator("#opt-games")
        elif key == "rated":  # the rated switch (accounts only) sits by the turn clock
            box = page.locator("#rated")
        elif key == "hints":  # the host's choice, by the turn clock
            box = page.locator("#hints")
        if isinstance(value, bool):
            box.set_checked(value)
        elif key == "turn_seconds":
            page.select_option("#turn-seconds", str(value))
        elif box.evaluate("e => e.tagName") == "SELECT":  # the deck (B13), the dealer
            box.select_option(str(value))
        else:
            box.fill(str(value))
    page.click("#create-button")
    page.wait_for_url("**/table.html?t=*")
    page.wait_for_selector("body[data-ready='1']")
    return str(page.url.split("t=")[1])


def join_by_link(page: Any, link: str, name: str) -> None:
    """Open an invite link, sit down with ``name`` and wait to be seated."""
    page.goto(link)
    page.wait_for_selector("#join-form")
    page.fill("#join-name", name)
    page.click("#join")
    page.wait_for_selector("#lobby-seats .badge.you")


def start(page: Any) -> None:
    """Start the game (the host's button); a table of you and bots has started itself."""
    page.wait_for_selector("#start, body[data-status=playing], body[data-status=finished]")
    if page.locator("#start").count():
        page.click("#start")
    page.wait_for_selector("body[data-status=playing], body[data-status=finished]")


def state_n(page: Any) -> int:
    return int(page.get_attribute("body", "data-n") or -1)


def wait_after(page: Any, before: int) -> None:
    """Wait until the page shows a state newer than ``before``."""
    page.wait_for_function(f"Number(document.body.dataset.n) > {before}")


def bluff_turn(page: Any, rng: random.Random, challenge: float) -> None:
    """Make one Bluff move and wait for the state after it."""
    before = state_n(page)
    bluff_move(page, rng, challenge)
    wait_after(page, before)


def bluff_move(page: Any, rng: random.Random, challenge: float) -> None:
    """Click one Bluff move: challenge sometimes, else the weakest call the picker offers."""
    can_challenge = page.locator("#challenge").count() > 0
    has_calls = page.locator("#picker").count() > 0
    if can_challenge and (not has_calls or rng.random() < challenge):
        page.keyboard.press("c")  # the documented shortcut
    else:
        depth = 0
        while page.locator("#make-call").is_disabled():
            assert depth < 8, "the picker's steps did not make a call"
            page.locator(".pick-step").nth(depth).locator("button").first.click()
            depth += 1
        page.click("#make-call")


def liar_turn(page: Any, rng: random.Random, doubt: float) -> None:
    """Make one Liar Game move through the UI, from what the controls offer."""
    before = state_n(page)

    def has(sel: str) -> bool:
        return page.locator(sel).count() > 0

    if has("#give"):
        count = int(page.get_attribute("#give", "data-count") or 0)
        for card in page.locator("#hand button.card").all()[:count]:
            card.click()
        page.click("#give")
    elif has("#accept"):
        page.click("#doubt" if has("#doubt") and rng.random() < doubt else "#accept")
    elif has("#doubt") and rng.random() < doubt:
        page.keyboard.press("d")
    elif has("#play") and (not has("#pass") or rng.random() < 0.8):
        counts = [int(c) for c in (page.get_attribute("#play", "data-counts") or "").split()]
        cards = page.locator("#hand button.card").all()
        count = counts[0]
        for card in rng.sample(cards, count):
            card.click()
        rates = page.locator("#rates button").all()
        rng.choice(rates).click()
        page.click("#play")
    elif has("#pass"):
        page.keyboard.press("p")
    else:
        page.click("#doubt")
    wait_after(page, before)


def play_out(page: Any, turn: Any, limit_s: float = 60.0, seen: set[str] | None = None,
             check: Any = None, **kw: Any) -> int:
    """Take turns until the game is over; returns the number of moves made. ``seen``
    collects the ids of the action buttons offered along the way."""
    rng = random.Random(5)
    moves = 0
    deadline = time.monotonic() + limit_s
    while True:
        # Bots think at the lowest CPU priority: on a busy machine a turn can take a while
        # (a bot past its 5 s deadline is stood in for, so it does end).
        page.wait_for_selector(ANY_TURN, timeout=30_000)
        if page.get_attribute("body", "data-status") == "finished":
            return moves
        assert time.monotonic() < deadline, "the game did not end in time"
        if seen is not None:
            offered = page.locator("#controls button[id]").evaluate_all(
                "els => els.map(e => e.id)")
            if "give" in offered and "give" not in seen:
                shot(page, "06-liar-class-exchange")
            seen.update(offered)
        if check is not None:
            check(page)
        turn(page, rng, **kw)
        moves += 1


def see_results(page: Any) -> None:
    """At a game's end the reveal that ended it comes first, with a button to the results
    (a game that ended otherwise shows its results at once). A rematch offer shows the
    results by itself and takes the button away, even between finding it and clicking it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    results = page.locator("#results:not([hidden])")
    page.wait_for_selector("#reveal-results, #results:not([hidden])")
    while not results.count():
        try:
            page.click("#reveal-results", timeout=2000)
        except PlaywrightTimeout:  # the button went: the results show, or it comes back
            page.wait_for_selector("#reveal-results, #results:not([hidden])")
    page.wait_for_selector("#results:not([hidden])")


def review_a_bot_game(page: Any, base: str, at_results: Any = None) -> None:
    """Three bots play a short Bluff game (B13's 24-card deck, out at the second loss);
    the page watches it as a spectator to its results (``at_results(page)`` looks at
    them), then opens the game's review from there and waits for it."""
    api = page.request
    created = api.post(f"{base}/api/tables", data={
        "game": "bluff", "seats": [{"bot": "normal"}, {"bot": "easy"}, {"bot": "hard"}],
        "rules": {"max_cards": 2, "ranks": 6}, "games": 1}).json()
    table = created["table_id"]
    assert api.post(f"{base}/api/tables/{table}/start",
                    data={"token": created["host_token"]}).ok
    page.goto(f"{base}/table.html?t={table}")
    page.wait_for_selector("body[data-status=finished]", timeout=30_000)
    see_results(page)
    if at_results is not None:
        at_results(page)
    page.click("#review")  # the button of the game-over panel
    page.wait_for_selector("#viewer:not([hidden])")
    page.wait_for_selector("body[data-review=done]", timeout=30_000)


def axe_check(page: Any) -> None:
    """Run axe-core (vendored: nothing is fetched) on the page as it is now: no serious or
    critical violation of WCAG 2.1 A/AA. Evaluated through the browser's debugger, so the
    page's Content Security Policy stays as it is."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text("utf-8") + "\n;0")
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: "tag",
            values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + n.failureSummary)}));
    }""")
    bad = [v for v in found if v["impact"] in BLOCKING]
    assert not bad, f"axe-core: {bad}"


def shot(page: Any, name: str, axe: bool = True) -> None:
    """Save a screenshot of the key screen ``name`` under screenshots/ (git-ignored), and
    check the screen with axe-core."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if axe:
        axe_check(page)


IN_VIEW = """sel => { const e = document.querySelector(sel); if (!e) return false;
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 1 && r.left >= 0
        && r.right <= innerWidth + 1; }"""


def assert_can_act(page: Any) -> None:
    """On your turn the hand and the action bar are on screen: nothing to scroll."""
    for sel in ("#hand", "#controls"):
        assert page.evaluate(IN_VIEW, sel), f"{sel} is not wholly in the viewport"
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")


LATIN = re.compile(r"[A-Za-z]{2,}")
ALLOWED_LATIN = {"usotsuki", "English"}  # the brand, the language switch


def english_left(page: Any, selector: str = "body") -> list[str]:
    """Words of two or more Latin letters on show under ``selector`` (none belong on a
    Japanese screen but the brand and the switch to English)."""
    text = page.locator(selector).inner_text()
    return sorted({w for w in LATIN.findall(text) if w not in ALLOWED_LATIN})
