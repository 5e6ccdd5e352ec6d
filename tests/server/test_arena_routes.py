"""The arena through the Bot API: a bot's token seeks, the bot is told its seat by a
``game`` event, plays it on the seat's WebSocket to the end, and appears on the arena's
leaderboard and on its profile (its arena rating; the game, with replay and review
links, marked as the arena's); refusals of a seek; the arena's page."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from bot_helpers import bearer, bot_account
from fastapi.testclient import TestClient
from history_helpers import play_to_the_end
from server_helpers import Seat, close_all
from waits import wait_for

from usotsuki.server.app import create_app
from usotsuki.server.config import Settings


@pytest.fixture
def arena_client() -> Iterator[TestClient]:
    settings = Settings(bot_delay=0.0, arena_tables=2, arena_turn_seconds=30.0)
    with TestClient(create_app(settings=settings, rate_limit=(1000.0, 1000.0))) as c:
        yield c
        close_all()


def new_bot(c: TestClient, name: str, scopes: tuple[str, ...] = ("play",)) -> tuple[str, str]:
    """A bot account's id and token; the client's cookie jar emptied (a bot's requests
    carry its token alone)."""
    owner, token = bot_account(c, name, scopes)
    c.cookies.clear()
    return owner.me["id"], token


def events(c: TestClient, token: str, after: int = 0) -> list[dict[str, Any]]:
    answer = c.get(f"/api/bot/events?after={after}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["events"]
    return found


def test_a_bot_seeks_plays_its_seat_and_appears_on_the_leaderboard(
        arena_client: TestClient) -> None:
    c = arena_client
    bot_id, token = new_bot(c, "seeker")
    assert c.get("/api/bot/seek", headers=bearer(token)).json() == {"state": "idle"}
    sought = c.post("/api/bot/seek", headers=bearer(token),
                    json={"game": "bluff", "players": 2, "preset": "short"})
    assert sought.status_code == 202, sought.text
    assert sought.json()["state"] == "seated"  # a house bot is always there
    [event] = wait_for(lambda: events(c, token), "the game event")
    assert event["type"] == "game" and event["arena"] and event["rated"]
    assert c.get("/api/bot/seek", headers=bearer(token)).json()["table_id"] == \
        event["table_id"]
    table = c.get(f"/api/tables/{event['table_id']}").json()
    assert table["status"] == "playing" and table["turn_seconds"] == 30.0
    [house] = [s["bot"] for s in table["seats"] if s["bot"] is not None]
    seat = Seat(c, event["table_id"], event["token"])
    assert seat.seat == event["seat"]
    play_to_the_end(seat, random.Random(3))
    seat.close()

    def listed() -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = c.get("/api/arena/bluff").json()["entries"]
        return entries if len(entries) == 2 else []

    board = {e["player_id"]: e for e in wait_for(listed, "the arena's leaderboard")}
    mine = board[bot_id]
    assert mine["kind"] == "bot" and mine["name"] == "seeker" and mine["games"] == 1
    assert mine["provisional"] and mine["low"] < mine["shown"] < mine["high"]
    assert list(mine["against"]) == [house] and mine["against"][house]["games"] == 1
    assert board[f"bot:bluff:{house}"]["kind"] == "house"
    assert c.get("/api/leaderboard/bluff?provisional=true").json()["entries"] == []
    profile = c.get(f"/api/players/{bot_id}").json()
    assert profile["arena"]["bluff"]["games"] == 1
    assert profile["games"]["bluff"]["rating"] is None  # the people's pool never moved
    [game] = c.get(f"/api/players/{bot_id}/games").json()["games"]
    assert game["arena"] and game["rated"] and game["links"]["replay"]
    people = c.get(f"/api/players/{bot_id}/ratings?game=bluff").json()
    arena = c.get(f"/api/players/{bot_id}/ratings?game=arena:bluff").json()
    assert people == [] and len(arena) == 1


def test_a_seek_needs_the_play_scope_a_known_preset_and_can_be_cancelled(
        arena_client: TestClient) -> None:
    c = arena_client
    _, token = new_bot(c, "picky", scopes=("challenge",))
    assert c.post("/api/bot/seek", json={}).json()["error"] == "bad_token"
    refused = c.post("/api/bot/seek", headers=bearer(token), json={})
    assert refused.status_code == 403 and refused.json()["error"] == "scope"
    _, token = new_bot(c, "patient")
    bad = c.post("/api/bot/seek", headers=bearer(token),
                 json={"game": "liar", "preset": "short"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_preset"
    # two tables at most: the third bot waits, then stops waiting
    for name in ("first", "second"):
        _, other = new_bot(c, name)
        assert c.post("/api/bot/seek", headers=bearer(other), json={"players": 2}).json()[
            "state"] == "seated"
    waiting = c.post("/api/bot/seek", headers=bearer(token), json={"players": 2})
    assert waiting.status_code == 202 and waiting.json()["state"] == "waiting"
    assert c.delete("/api/bot/seek", headers=bearer(token)).status_code == 204
    assert c.get("/api/bot/seek", headers=bearer(token)).json() == {"state": "idle"}


def test_the_arena_page_is_served(arena_client: TestClient) -> None:
    page = arena_client.get("/arena")
    assert page.status_code == 200 and 'src="/js/arena.js"' in page.text
