"""Run ``usotsuki serve`` as a real process and talk to it over real sockets."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from drive import choose
from waits import GAME_S, Deadline
from websockets.sync.client import ClientConnection, connect

NO_CONTRIBUTIONS = ("--contribute-seconds", "0")
"""Servers deal at once by default here: these clients send no contribution to a game's
deal (a test of the contributions passes its own ``--contribute-seconds``: the last one
given counts)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, db: str, *extra: str, port: int | None = None,
                 start_seconds: float = 30.0) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "usotsuki.cli.main", "serve", "--port",
                   str(self.port), "--db", db, *NO_CONTRIBUTIONS, *extra]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env={**os.environ})
        deadline = time.monotonic() + start_seconds
        while True:
            try:
                if httpx.get(f"{self.url}/api/bots/bluff", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()  # if still starting: its output, not a second timeout
                out, err = self.process.communicate(timeout=10)
                raise RuntimeError(f"the server did not start: {err.decode()[-2000:]}")
            time.sleep(0.05)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        r = httpx.post(self.url + path, json=body, timeout=10)
        assert r.status_code < 300, r.text
        return r.json() if r.content else None

    def get(self, path: str) -> Any:
        return httpx.get(self.url + path, timeout=10).json()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
                return
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()


class LiveSeat:
    """A real WebSocket client of one seat."""

    def __init__(self, server: Server, table_id: str, token: str, since: int = -1) -> None:
        self._cm = connect(
            f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}?token={token}&since={since}",
            open_timeout=10)
        self.ws: ClientConnection = self._cm.__enter__()
        self.events: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.seat = self.recv_until("welcome")["seat"]
        self.recv_until("state")

    def recv(self, deadline: Deadline | None = None) -> dict[str, Any]:
        deadline = deadline or Deadline(f"a message to seat {self.seat}")
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=deadline.left()))
        except TimeoutError:
            deadline.fail()
        if message["type"] == "event":
            self.events.append(message)
        elif message["type"] == "state":
            self.state = message
        return message

    def recv_until(self, kind: str) -> dict[str, Any]:
        deadline = Deadline(f"a message of type {kind!r} to seat {self.seat}")
        while True:
            message = self.recv(deadline)
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    def until_state(self, n: int) -> None:
        deadline = Deadline(f"state {n} or later at seat {self.seat}")
        while True:
            message = self.recv(deadline)
            if message["type"] == "state" and message["n"] >= n:
                return

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def play_live(seats: list[LiveSeat], stop_after: int | None = None) -> int:
    """Play the table of people; each choice is seeded by the state's event number, so
    the same game goes the same way whichever process serves it."""
    by_seat = {s.seat: s for s in seats}
    done = 0
    deadline = Deadline("the end of the live game", GAME_S)
    while (stop_after is None or done < stop_after) and deadline.left():
        state = seats[0].state
        assert state is not None
        if state["status"] != "playing" or state["to_move"] is None:
            break
        actor = by_seat[state["to_move"]]
        assert actor.state is not None
        text = choose(actor.state, random.Random(actor.state["n"]))
        actor.ws.send(json.dumps({"type": "act", "action": text, "id": done}))
        ack = actor.recv_until("ack")
        for s in seats:
            if s is not actor:
                s.until_state(ack["n"])
        done += 1
    return done


def new_db(tmp: Path, name: str) -> str:
    return str(tmp / f"{name}.sqlite3")
