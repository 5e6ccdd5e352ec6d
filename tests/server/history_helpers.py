"""Helpers of the games-kept tests: guests with sessions, games played to their end."""

from __future__ import annotations

import random
from typing import Any

from drive import choose
from fastapi.testclient import TestClient
from server_helpers import Seat
from waits import GAME_S, Deadline, wait_for

from usotsuki.server.history import FinishedGame, SeatResult


class Guest:
    """A browser's guest player: its session cookie and CSRF token, sent explicitly so
    that one test client can speak for several browsers."""

    def __init__(self, c: TestClient) -> None:
        c.cookies.clear()
        r = c.get("/api/me")
        assert r.status_code == 200, r.text
        self.id: str = r.json()["id"]
        self.cookie = f"usotsuki_session={r.cookies['usotsuki_session']}"
        self.csrf: str = r.json()["csrf"]
        c.cookies.clear()
        self.c = c

    @property
    def headers(self) -> dict[str, str]:
        return {"Cookie": self.cookie, "X-CSRF-Token": self.csrf}

    def get(self, path: str) -> Any:
        r = self.c.get(path, headers={"Cookie": self.cookie})
        assert r.status_code == 200, r.text
        return r.json()

    def join(self, invite: str, name: str, seat: int | None = None) -> str:
        r = self.c.post(f"/api/invites/{invite}/join", json={"name": name, "seat": seat},
                        headers=self.headers)
        assert r.status_code == 200, r.text
        token: str = r.json()["token"]
        return token


def play_to_the_end(seat: Seat, rng: random.Random) -> None:
    """Play ``seat``'s turns until the table's game ends; the bots play theirs."""
    deadline = Deadline(f"the end of the game at seat {seat.seat}", GAME_S)
    acted = -1
    while seat.state is None or seat.state["status"] != "finished":
        state = seat.state
        if (state is not None and state["to_move"] == seat.seat and state["legal"]
                and state["n"] > acted):
            acted = state["n"]
            seat.send({"type": "act", "action": choose(state, rng), "id": acted})
        seat.recv(deadline)


def kept_games(c: TestClient, guest: Guest, count: int) -> list[dict[str, Any]]:
    """Wait until ``guest``'s own list holds ``count`` games; those games."""
    def kept() -> list[dict[str, Any]] | None:
        games: list[dict[str, Any]] = guest.get("/api/me/games")["games"]
        return games if len(games) >= count else None

    return wait_for(kept, f"{count} games kept for {guest.id}")


def synthetic(table_pk: int, number: int, finished: float, seats: list[tuple[str | None, int]],
              game: str = "bluff", rules: dict[str, Any] | None = None,
              rated: bool = False, public: bool = False) -> FinishedGame:
    """A finished game as the keeper stores it: ``seats`` (player id, place) in order."""
    return FinishedGame(table_pk, number, game, rules or {"max_cards": 2}, finished, public,
                        rated, {"game": game, "players": [f"p{i}" for i in range(len(seats))]},
                        tuple(SeatResult(i, p, f"p{i}", None, place, False)
                              for i, (p, place) in enumerate(seats)))
