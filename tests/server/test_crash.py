"""A server killed with SIGKILL and restarted carries on every unfinished game exactly
where it was: the finished game equals the same game played without the crash."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from live_helpers import LiveSeat, Server, new_db, play_live

from usotsuki.fairness import verify_record
from usotsuki.replay import replay_record

SEED = "424242"  # --deal-seed: both servers deal the same cards


def seat_tables(db: str, game: str, rules: dict[str, Any]
                ) -> tuple[dict[str, Any], str, list[str]]:
    """A table of bots and a table of three people, seated, not started: the bots'
    table, the people's table id and their tokens."""
    server = Server(db, "--deal-seed", SEED)
    try:
        bots = server.post("/api/tables", {"game": "bluff", "seats": [{"bot": "cautious"}] * 4})
        table = server.post("/api/tables", {"game": game, "seats": [{}, {}, {}],
                                            "rules": rules})
        tokens = [server.post(f"/api/invites/{table['invite']}/join",
                              {"name": f"p{i}"})["token"] for i in range(3)]
        return bots, table["table_id"], tokens
    finally:
        server.stop()


def copy_db(db: str, to: str) -> None:
    """The SQLite database (and its write-ahead log, if any) copied: the same tables,
    ids and tokens, so that the same seed deals the same games (docs/fairness.md: the
    deals depend on the table's id)."""
    for suffix in ("", "-wal", "-shm"):
        if Path(db + suffix).exists():
            shutil.copyfile(db + suffix, to + suffix)


def play(db: str, bots: dict[str, Any], tid: str, tokens: list[str], crash_after: int | None
         ) -> tuple[dict[str, Any], list[list[dict[str, Any]]], dict[str, Any] | None]:
    server = Server(db, "--deal-seed", SEED, "--bot-delay", "0.05")
    bots_record = None
    try:
        seats = [LiveSeat(server, tid, t) for t in tokens]
        server.post(f"/api/tables/{tid}/start", {"token": tokens[0]})
        for s in seats:
            s.until_state(0)
        server.post(f"/api/tables/{bots['table_id']}/start", {"token": bots["host_token"]})
        if crash_after is not None:
            assert play_live(seats, stop_after=crash_after) == crash_after
            assert server.get(f"/api/tables/{bots['table_id']}")["status"] == "playing"
            server.kill()
            seen = [s.events for s in seats]
            for s in seats:
                s.close()
            server = Server(db, "--deal-seed", SEED, "--bot-delay", "0.05", port=server.port)
            seats = [LiveSeat(server, tid, t, since=events[-1]["n"])
                     for t, events in zip(tokens, seen, strict=True)]
            for s, before in zip(seats, seen, strict=True):
                s.events[:0] = before
            deadline = time.monotonic() + 60
            while server.get(f"/api/tables/{bots['table_id']}")["status"] != "finished":
                assert time.monotonic() < deadline, "the bot table did not carry on"
                time.sleep(0.1)
            bots_record = server.get(f"/api/tables/{bots['table_id']}/games/0/record")
        play_live(seats)
        record = server.get(f"/api/tables/{tid}/games/0/record")
        events = [s.events for s in seats]
        for s in seats:
            s.close()
        return record, events, bots_record
    finally:
        server.stop()


@pytest.mark.parametrize("game,rules", [("bluff", {"max_cards": 3}),
                                        ("liar", {"eight_cut": True, "turn_limit": 90})])
def test_sigkill_mid_game_then_restart_finishes_the_same_game(tmp_path: Path, game: str,
                                                              rules: dict[str, Any]) -> None:
    crashed_db, calm_db = new_db(tmp_path, "crashed"), new_db(tmp_path, "calm")
    bots, tid, tokens = seat_tables(crashed_db, game, rules)
    copy_db(crashed_db, calm_db)
    crashed, crashed_events, bots_record = play(crashed_db, bots, tid, tokens, 8)
    calm, calm_events, _ = play(calm_db, bots, tid, tokens, None)
    assert replay_record(crashed)["finished"]
    assert verify_record(crashed) is None
    assert crashed == calm
    assert crashed_events == calm_events  # each seat saw the same numbered events
    assert bots_record is not None and replay_record(bots_record)["finished"]
