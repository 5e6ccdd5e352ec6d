"""``seating.seated_table``: a table made for chosen players, their seats taken and the
game begun, or nobody left seated."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psycopg
import pytest

from usotsuki.server.config import RealClock, Refused, Settings
from usotsuki.server.lobby import Lobby
from usotsuki.server.seating import Sitter, seated_table
from usotsuki.server.store import Store

CONFIG = {"players": 3, "rules": {}, "games": 1, "turn_seconds": None,
          "visibility": "private", "chat": True, "hints": True}


class LostStartAnswer(Store):
    """Commits a game's start, then fails as a lost connection would (its answer lost)."""

    def append_many(self, table_pk: int, first: int, entries: list[tuple[str, dict[str, Any]]],
                    now: float | None = None) -> None:
        super().append_many(table_pk, first, entries, now)
        if any(kind == "start" for kind, _ in entries):
            raise psycopg.OperationalError("server closed the connection unexpectedly")


class NoStart(Store):
    """Refuses every game's start (nothing written)."""

    def append_many(self, table_pk: int, first: int, entries: list[tuple[str, dict[str, Any]]],
                    now: float | None = None) -> None:
        if any(kind == "start" for kind, _ in entries):
            raise psycopg.OperationalError("could not connect to server")
        super().append_many(table_pk, first, entries, now)


def _seat(store: Store) -> tuple[Any, dict[str, tuple[int, str]]]:
    async def main() -> tuple[Any, dict[str, tuple[int, str]]]:
        lobby = Lobby(store, Settings(bot_delay=0.0), RealClock())
        await lobby.start()
        try:
            table, seats = await seated_table(lobby, "bluff", CONFIG, [
                Sitter("p1", "Mika"), "random", Sitter("p2", "Kenji")])
            return table, seats
        finally:
            lobby.stop()
    return asyncio.run(main())


def test_a_start_whose_answer_was_lost_is_a_table_in_play(tmp_path: Path) -> None:
    store = LostStartAnswer(str(tmp_path / "s.sqlite3"))
    table, seats = _seat(store)
    assert table.games and set(seats) == {"p1", "p2"}
    assert [s.player_id for s in store.load_seats(table.row.pk)] == ["p1", "bot:bluff:random", "p2"]
    assert [e.kind for e in store.load_log(table.row.pk)][:1] == ["start"]


def test_a_start_that_failed_leaves_nobody_seated(tmp_path: Path) -> None:
    store = NoStart(str(tmp_path / "s.sqlite3"))
    with pytest.raises(Refused) as refused:
        _seat(store)
    assert refused.value.code == "unavailable"
    [pk] = [row.pk for row in store.load_tables()]
    assert [s.player_id for s in store.load_seats(pk)] == [None, "bot:bluff:random", None]
    assert "start" not in [e.kind for e in store.load_log(pk)]
