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


def bot_token(base: str, name: str) -> tuple[str, str]:
    """Sign up ``name``, mark it a bot and make it a token, as its owner would: (the
    bot's id, the token)."""
    with httpx.Client(base_url=base) as owner:
        csrf = owner.get("/api/me").json()["csrf"]
        signed = owner.post("/api/account/signup", json={"username": name,
                                                         "password": PASSWORD},
                            headers={"X-CSRF-Token": csrf})
        assert signed.status_code == 201, signed.text
        csrf = signed.json()["csrf"]
        marked = owner.post("/api/account/bot", headers={"X-CSRF-Token": csrf})
        assert marked.status_code == 200, marked.text
        made = owner.post("/api/account/tokens", json={"label": "e2e", "scopes": ["play"]},
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
