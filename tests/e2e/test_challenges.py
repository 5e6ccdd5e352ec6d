"""A person challenges an outside bot from its profile page and plays the game to its
end. The bot is a small program run here with its own token: it reads its events over
HTTP, accepts the challenge, and plays the seat of its ``game`` event through the seat's
WebSocket (``usotsuki.client``), choosing among the legal moves."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import httpx
from e2e_helpers import bluff_turn, play_out, see_results, shot

from usotsuki.client import Seat, Turn, play

PASSWORD = "correct horse battery"


def bot_token(base: str, name: str, scopes: tuple[str, ...] = ("play",)) -> tuple[str, str]:
    """Sign up ``name``, mark it a bot and make it a token of ``scopes``, as its owner
    would: (the bot's id, the token)."""
    with httpx.Client(base_url=base) as owner:
        csrf = owner.get("/api/me").json()["csrf"]
        signed = owner.post("/api/account/signup", json={"username": name,
                                                         "password": PASSWORD},
                            headers={"X-CSRF-Token": csrf})
        assert signed.status_code == 201, signed.text
        csrf = signed.json()["csrf"]
        marked = owner.post("/api/account/bot", headers={"X-CSRF-Token": csrf})
        assert marked.status_code == 200, marked.text
        made = owner.post("/api/account/tokens", json={"label": "e2e", "scopes": list(scopes)},
                          headers={"X-CSRF-Token": csrf})
        assert made.status_code == 201, made.text
        return str(signed.json()["id"]), str(made.json()["token"])


async def outside_bot(base: str, token: str, done: threading.Event,
                      played: list[dict[str, Any]]) -> None:
    """Accept every challenge; play each seat given until ``done``."""
    rng = random.Random(3)

    def policy(turn: Turn) -> str:
        return str(rng.choice(turn.legal))

    async with httpx.AsyncClient(base_url=base, timeout=30,
                                 headers={"Authorization": f"Bearer {token}"}) as api:
        after = 0
        while not done.is_set():
            answer = await api.get(f"/api/bot/events?after={after}&wait=2")
            answer.raise_for_status()
            after = answer.json()["next"]
            for event in answer.json()["events"]:
                if event["type"] == "challenge":
                    accepted = await api.post(f"/api/challenges/{event['id']}/accept")
                    accepted.raise_for_status()
                elif event["type"] == "game":
                    async with Seat(base, event["table_id"], event["token"]) as seat:
                        last = await play(seat, policy)
                    played.append({**event, "last": last})


def test_a_person_challenges_an_outside_bot_and_plays_to_the_end(
        new_page: Any, live_server: Any) -> None:
    bot_id, token = bot_token(live_server.url, "Robo")
    done = threading.Event()
    played: list[dict[str, Any]] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(outside_bot(live_server.url, token, done, played))
        except BaseException as exc:  # the test says what broke the bot
            failed.append(exc)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    try:
        page = new_page()
        page.goto(f"/players/{bot_id}")
        page.wait_for_selector("#challenge-form")
        assert page.inner_text("#player-name") == "Robo"
        page.select_option("#challenge-game", "bluff")
        page.select_option("#challenge-players", "2")
        page.select_option("#challenge-preset", "short")
        page.select_option("#challenge-clock", "30")
        shot(page, "45-challenge-a-bot")
        page.click("#challenge-send")
        page.wait_for_url("**/table.html?t=*", timeout=30_000)
        table_id = page.url.split("t=")[1]
        page.wait_for_selector("#hand .card")  # a seat's own cards: seated, not watching
        play_out(page, bluff_turn, limit_s=240, challenge=0.4)
        see_results(page)
        info = httpx.get(f"{live_server.url}/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["players"] == 2
        assert info["turn_seconds"] == 30
        assert all(s["bot"] is None for s in info["seats"])  # both seats played as given
    finally:
        done.set()
        runner.join(timeout=30)
    assert not failed, f"the outside bot failed: {failed!r}"
    assert [(p["table_id"], p["last"]["status"]) for p in played] == [(table_id, "finished")]


def test_a_bot_challenges_a_person_who_takes_bots_challenges(
        new_page: Any, live_server: Any) -> None:
    """The Account page's switch lets bots challenge; the home page shows the challenge
    as it comes, and accepting seats the person at the table."""
    page = new_page(locale="ja-JP")
    page.goto("/account")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#signup-username", "Hanako")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    page.wait_for_selector("#bot-challenges:not([disabled])")
    assert not page.is_checked("#bot-challenges")
    page.check("#bot-challenges")
    page.wait_for_selector("#bot-challenges-note:has-text('受け付けています')")
    shot(page, "47-account-bot-challenges-ja")
    person_id = page.request.get(f"{live_server.url}/api/me").json()["id"]

    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#challenges").is_hidden()  # none yet
    with httpx.Client(base_url=live_server.url) as owner:
        _bot_id, token = bot_token(live_server.url, "Shogi")
        headers = {"Authorization": f"Bearer {token}"}
        scoped = owner.post("/api/challenges", headers=headers, json={
            "to": person_id, "game": "liar", "players": 3, "turn_seconds": 60})
        assert scoped.status_code == 403 and scoped.json()["error"] == "scope"  # play only
    _bot_id, token = bot_token(live_server.url, "Kishi", ("play", "challenge"))
    with httpx.Client(base_url=live_server.url,
                      headers={"Authorization": f"Bearer {token}"}) as bot:
        sent = bot.post("/api/challenges", json={"to": person_id, "game": "liar",
                                                 "players": 3, "turn_seconds": 60})
        assert sent.status_code == 201, sent.text
        item = page.wait_for_selector(".challenge-in", timeout=15_000)  # the home page's poll
        assert "Kishi" in item.inner_text() and "3人" in item.inner_text()
        shot(page, "46-challenge-from-a-bot-ja")
        page.click(f"#accept-{sent.json()['id']}")
        page.wait_for_url("**/table.html?t=*")
        table_id = page.url.split("t=")[1]
        page.wait_for_selector("#hand .card")
        events = bot.get("/api/bot/events?after=0").json()["events"]
    games = [e for e in events if e["type"] == "game"]
    assert [g["table_id"] for g in games] == [table_id]
    info = httpx.get(f"{live_server.url}/api/tables/{table_id}").json()
    assert info["status"] == "playing" and info["players"] == 3
    assert [s["bot"] for s in info["seats"]].count("normal") == 1


def test_a_challenge_accepted_while_away_keeps_its_seat(
        new_page: Any, live_server: Any) -> None:
    """A person who left the profile page while waiting finds the accepted challenge on
    the home page and takes the seat from there."""
    bot_id, token = bot_token(live_server.url, "Later")
    page = new_page()
    page.goto(f"/players/{bot_id}")
    page.wait_for_selector("#challenge-form")
    page.click("#challenge-send")
    page.wait_for_selector("#challenge-withdraw")
    page.goto("/")
    page.wait_for_selector(".challenge-out")
    with httpx.Client(base_url=live_server.url,
                      headers={"Authorization": f"Bearer {token}"}) as bot:
        [told] = [e for e in bot.get("/api/bot/events?after=0").json()["events"]
                  if e["type"] == "challenge"]
        seat = bot.post(f"/api/challenges/{told['id']}/accept").json()
    page.click(f"#to-table-{told['id']}", timeout=15_000)  # once the home page's poll sees it
    page.wait_for_url(f"**/table.html?t={seat['table_id']}")
    page.wait_for_selector("#hand .card")  # seated: the seat was kept for them
