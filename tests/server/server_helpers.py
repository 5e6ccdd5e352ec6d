"""Helpers for playing whole games through the server in-process."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import anyio
from drive import choose
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from waits import GAME_S, REPLY_S, Deadline


def create(c: TestClient, game: str, bots: list[str | None], rules: dict[str, Any] | None = None,
           games: int = 1) -> dict[str, Any]:
    r = c.post("/api/tables", json={"game": game, "seats": [{"bot": b} for b in bots],
                                    "rules": rules or {}, "games": games})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join_all(c: TestClient, table: dict[str, Any]) -> list[str]:
    """Join every person's seat; the tokens in seat order (None for bots)."""
    tokens = []
    for seat in table["table"]["seats"]:
        if seat["bot"] is None:
            r = c.post(f"/api/invites/{table['invite']}/join",
                       json={"name": f"p{seat['seat']}", "seat": seat["seat"]})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        else:
            tokens.append(None)
    return tokens


OPEN: list[Seat] = []  # closed by the client fixture, so the app can shut down


def close_all() -> None:
    while OPEN:
        OPEN.pop().close()


class Seat:
    """One WebSocket connection, remembering every message it received."""

    def __init__(self, c: TestClient, table_id: str, token: str | None, since: int = -1,
                 cookie: str | None = None):
        """``cookie``: the session cookie's value the socket opens with (an identity)."""
        query = f"?since={since}" + (f"&token={token}" if token else "")
        headers = {} if cookie is None else {"cookie": f"usotsuki_session={cookie}"}
        self.cm = c.websocket_connect(f"/ws/tables/{table_id}{query}", headers=headers)
        self.ws = self.cm.__enter__()
        self.open = True
        OPEN.append(self)
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        welcome = self.recv()
        assert welcome["type"] == "welcome"
        self.seat = welcome["seat"]
        self.until("state")

    def recv(self, deadline: Deadline | None = None) -> dict[str, Any]:
        """The next message, within ``deadline`` (by default one reply's time)."""
        deadline = deadline or Deadline(f"a message to seat {self.seat}")
        message = receive(self.ws, deadline, self.messages[-1] if self.messages else None)
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def _deadline(self, within: float | Deadline, what: str) -> Deadline:
        return within if isinstance(within, Deadline) else Deadline(what, within)

    def until(self, kind: str, within: float | Deadline = REPLY_S) -> dict[str, Any]:
        """Read until a message of type ``kind``, within ``within`` (seconds or a deadline
        shared by several waits)."""
        deadline = self._deadline(within, f"a message of type {kind!r} to seat {self.seat}")
        while True:
            message = self.recv(deadline)
            if message["type"] == kind:
                return message

    def until_any(self, within: float | Deadline = REPLY_S) -> dict[str, Any]:
        """The next message that is not an event, state or table update."""
        deadline = self._deadline(within, f"a reply to seat {self.seat}")
        while True:
            message = self.recv(deadline)
            if message["type"] not in ("event", "state", "table"):
                return message

    def until_state(self, n: int, within: float | Deadline = REPLY_S) -> dict[str, Any]:
        """Read until a state message numbered at least ``n``."""
        deadline = self._deadline(within, f"state {n} or later at seat {self.seat}")
        while True:
            message = self.recv(deadline)
            if message["type"] == "state" and message["n"] >= n:
                return message

    def until_finished(self, within: float | Deadline = GAME_S) -> dict[str, Any]:
        """Read until a state message of a finished table (a game of bots to its end)."""
        deadline = self._deadline(within, f"the end of the game at seat {self.seat}")
        while self.state is None or self.state["status"] != "finished":
            self.recv(deadline)
        return self.state

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def close(self) -> None:
        if self.open:
            self.open = False
            self.cm.__exit__(None, None, None)

    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]


def play_out(seats: list[Seat], rng: random.Random, others: Sequence[Seat] = (),
             max_actions: int = 5000, stop_after: int | None = None) -> int:
    """Play a table of people (no bots) to its end, or ``stop_after`` actions: the seat to
    move acts, then every connection reads up to the resulting state. Returns actions."""
    by_seat = {s.seat: s for s in seats}
    done = 0
    while done < max_actions and (stop_after is None or done < stop_after):
        state = seats[0].state
        assert state is not None
        if state["status"] != "playing" or state["to_move"] is None:
            break
        actor = by_seat[state["to_move"]]
        assert actor.state is not None and actor.state["n"] == state["n"]
        actor.send({"type": "act", "action": choose(actor.state, rng), "id": done})
        ack = actor.until_any()
        assert ack["type"] == "ack" and ack["id"] == done, ack
        for s in [*seats, *others]:
            if s is not actor:
                s.until_state(ack["n"])
        done += 1
    return done


def receive(ws: WebSocketTestSession, deadline: Deadline | None = None,
            last: Any = None) -> Any:
    """``ws.receive_json()`` within ``deadline`` (by default one reply's time): starlette's
    test session waits for ever. On time out the failure shows ``last``, the message
    before (what came instead of the awaited one)."""
    deadline = deadline or Deadline("a WebSocket message")
    try:
        sent = ws.portal.call(_receive_within, ws, deadline.left())
    except TimeoutError:
        deadline.fail(f"the last message: {last}" if last is not None else "")
    ws._raise_on_close(sent)  # a close or a refusal, raised as receive_json does
    return json.loads(sent["text"])


async def _receive_within(ws: WebSocketTestSession, seconds: float) -> Any:
    """What the session's ``receive()`` reads (its queue of sent messages, a private
    field), within ``seconds``."""
    with anyio.fail_after(seconds):
        return await ws._send_rx.receive()
