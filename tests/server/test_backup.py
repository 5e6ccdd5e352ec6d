"""Backups as docs/deploy.md ("Backups") has them: ``pg_dump`` of the live database while
a game is being played, restored with ``pg_restore`` into a fresh database, a server
started on it, and the game goes on from the dump's state: the same events, more
actions accepted, to the end."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_helpers import LiveSeat, Server, play_live
from pg_helpers import new_database, pg_bin, throwaway_postgres
from test_crash import SEED, open_table

from usotsuki.replay import replay_record


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    with throwaway_postgres() as url:
        yield url


def test_a_dump_of_a_live_game_restores_and_the_game_goes_on(pg_server: str,
                                                             tmp_path: Path) -> None:
    bindir = pg_bin()
    assert bindir is not None
    live = new_database(pg_server, "usotsuki_live")
    server = Server(live, "--deal-seed", SEED, "--bot-delay", "0.05")
    try:
        table_id, tokens, seats = open_table(server, "bluff", {"max_cards": 3})
        assert play_live(seats, stop_after=5) == 5
        before = seats[0].state
        assert before is not None and before["status"] == "playing"
        # the dump, taken while the game goes on (pg_dump reads one consistent snapshot
        # and holds no lock against the game's writes)
        dump = tmp_path / "usotsuki.dump"
        playing = threading.Thread(target=play_live, args=(seats, 3))
        playing.start()
        subprocess.run([f"{bindir}/pg_dump", "--format=custom", "--file", str(dump),
                        live], check=True, capture_output=True)
        playing.join()
        after = seats[0].state
        assert after is not None and after["n"] > before["n"]
        seen = [list(s.events) for s in seats]
    finally:
        for s in seats:
            s.close()
        server.stop()
    restored = new_database(pg_server, "usotsuki_restored")
    subprocess.run([f"{bindir}/pg_restore", "--no-owner", "--dbname", restored, str(dump)],
                   check=True, capture_output=True)
    server = Server(restored, "--deal-seed", SEED, "--bot-delay", "0.05")
    try:
        again = [LiveSeat(server, table_id, t) for t in tokens]
        for s, live_events in zip(again, seen, strict=True):
            # the dump's state: the game as it was at some moment of the dump, each event
            # as the players saw it live
            assert s.state is not None and before["n"] <= s.state["n"] <= after["n"]
            assert s.events == live_events[:len(s.events)]
        assert play_live(again) > 0  # more actions accepted, to the end of the game
        record = server.get(f"/api/tables/{table_id}/games/0/record")
        assert replay_record(record)["finished"]
        for s in again:
            s.close()
    finally:
        server.stop()
