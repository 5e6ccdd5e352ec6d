"""A server killed with SIGKILL and restarted carries on every unfinished game exactly
where it was: the finished game equals the same game played without the crash."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from live_helpers import LiveSeat, Server, new_db, play_live

from usotsuki.replay import replay_record

SEED = "424242"  # --deal-seed: both servers deal the same cards


def open_table(server: Server, game: str, rules: dict[str, Any]
               ) -> tuple[str, list[str], list[LiveSeat]]:
    table = server.post("/api/tables", {"game": game, "seats": [{}, {}, {}], "rules": rules})
    tokens = [server.post(f"/api/invites/{table['invite']}/join", {"name": f"p{i}"})["token"]
              for i in range(3)]
    seats = [LiveSeat(server, table["table_id"], t) for t in tokens]
    server.post(f"/api/tables/{table['table_id']}/start", {"token": tokens[0]})
    for s in seats:
        s.until_state(0)
    return table["table_id"], tokens, seats


def table_free(value: Any, record: dict[str, Any]) -> str:
    """``value`` as JSON with the record's table id and commitment left out."""
    fair = record["fairness"]
    return (json.dumps(value).replace(fair["commitment"], "<commitment>")
            .replace(fair["table"], "<table>"))


def play(db: str, game: str, rules: dict[str, Any], crash_after: int | None
         ) -> tuple[dict[str, Any], list[list[dict[str, Any]]], dict[str, Any] | None]:
    server = Server(db, "--deal-seed", SEED, "--bot-delay", "0.05")
    bots_record = None
    try:
        bots = server.post("/api/tables", {"game": "bluff", "seats": [{"bot": "cautious"}] * 4})
        tid, tokens, seats = open_table(server, game, rules)
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
    crashed, crashed_events, bots_record = play(new_db(tmp_path, "crashed"), game, rules, 8)
    calm, calm_events, _ = play(new_db(tmp_path, "calm"), game, rules, None)
    assert replay_record(crashed)["finished"]
    # The same game, but at two tables: their ids differ, and so the commitments to one
    # secret (the deal seed makes the secrets the same).
    assert crashed["fairness"]["secret"] == calm["fairness"]["secret"]
    assert table_free(crashed, crashed) == table_free(calm, calm)
    # each seat saw the same numbered events
    assert table_free(crashed_events, crashed) == table_free(calm_events, calm)
    assert bots_record is not None and replay_record(bots_record)["finished"]
