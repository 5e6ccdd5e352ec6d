"""Backups as docs/deploy.md ("Backups") has them: ``pg_dump`` of the live database while
a game is being played, restored with ``pg_restore`` into a fresh database, a server
started on it, and the game goes on from the dump's state: the same events, more
actions accepted, to the end. The same from a base backup and the WAL archive, recovered
to a named point in time."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import psycopg
from live_helpers import LiveSeat, Server, free_port, play_live
from pg_helpers import _as_postgres, new_database, pg_bin, throwaway_postgres
from test_crash import SEED
from waits import wait_for

from usotsuki.replay import replay_record


def open_table(server: Server, game: str, rules: dict[str, Any]
               ) -> tuple[str, list[str], list[LiveSeat]]:
    """A table of three people, seated and started: its id, their tokens and seats."""
    table = server.post("/api/tables", {"game": game, "seats": [{}, {}, {}], "rules": rules})
    tokens = [server.post(f"/api/invites/{table['invite']}/join", {"name": f"p{i}"})["token"]
              for i in range(3)]
    seats = [LiveSeat(server, table["table_id"], t) for t in tokens]
    server.post(f"/api/tables/{table['table_id']}/start", {"token": tokens[0]})
    for s in seats:
        s.until_state(0)
    return table["table_id"], tokens, seats


def goes_on(server: Server, table_id: str, tokens: list[str],
            seen: list[list[dict[str, Any]]], state: range) -> None:
    """The restored game: its state numbered within ``state``, each seat's events as the
    players saw them live, and more actions accepted, to the end of the game."""
    again = [LiveSeat(server, table_id, t) for t in tokens]
    for s, live_events in zip(again, seen, strict=True):
        assert s.state is not None and s.state["n"] in state
        assert s.events == live_events[:len(s.events)]
    assert play_live(again) > 0
    record = server.get(f"/api/tables/{table_id}/games/0/record")
    assert replay_record(record)["finished"]
    for s in again:
        s.close()


def test_a_dump_of_a_live_game_restores_and_the_game_goes_on(pg_server: str,
                                                             tmp_path: Path) -> None:
    bindir = pg_bin()
    assert bindir is not None
    live = new_database(pg_server, "usotsuki_live")
    server = Server(live, "--migrate", "--deal-seed", SEED, "--bot-delay", "0.05")
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
        # the dump's state: the game as it was at some moment of the dump
        goes_on(server, table_id, tokens, seen, range(before["n"], after["n"] + 1))
    finally:
        server.stop()


def test_point_in_time_recovery_from_a_base_backup_and_the_wal_archive(
        tmp_path: Path) -> None:
    """docs/deploy.md's point-in-time recovery: WAL archived beside a base backup taken
    mid-game, recovered up to a named moment; the game goes on from exactly there."""
    bindir = pg_bin()
    assert bindir is not None
    work = Path(tempfile.mkdtemp(prefix="usotsuki-pitr-"))
    archive, base = work / "wal", work / "base"
    archive.mkdir()
    if os.geteuid() == 0:  # the server (and its archive_command) run as postgres
        for folder in (work, archive):
            shutil.chown(folder, "postgres")
    settings = (f"-c wal_level=replica -c archive_mode=on "
                f"-c archive_command='cp %p {archive}/%f'")
    try:
        with throwaway_postgres(durable=True, settings=settings) as pg:
            db = new_database(pg, "usotsuki_pitr")
            server = Server(db, "--migrate", "--deal-seed", SEED, "--bot-delay", "0.05")
            try:
                table_id, tokens, seats = open_table(server, "bluff", {"max_cards": 3})
                assert play_live(seats, stop_after=3) == 3
                subprocess.run(_as_postgres([f"{bindir}/pg_basebackup", "-d", pg, "-D",
                                             str(base), "-X", "stream",
                                             # no wait for a spread checkpoint (~100 s)
                                             "--checkpoint", "fast"]),
                               check=True, capture_output=True)
                assert play_live(seats, stop_after=3) == 3  # after the base backup
                with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
                    conn.execute("SELECT pg_create_restore_point('before-the-mistake')")
                    target = seats[0].state
                    assert target is not None and target["status"] == "playing"
                    assert play_live(seats, stop_after=2) == 2  # after the target: gone
                    segment = conn.execute("SELECT pg_walfile_name(pg_switch_wal())"
                                           ).fetchone()
                    assert segment is not None

                    def archived() -> bool:
                        row = conn.execute("SELECT last_archived_wal FROM pg_stat_archiver"
                                           ).fetchone()
                        return row is not None and (row[0] or "") >= segment[0]

                    wait_for(archived, "the WAL segment archived")
                seen = [list(s.events) for s in seats]
            finally:
                for s in seats:
                    s.close()
                server.stop()
        # the recovery: the base backup, the archive up to the restore point
        with open(base / "postgresql.auto.conf", "a") as conf:
            conf.write(f"restore_command = 'cp {archive}/%f %p'\n"
                       "recovery_target_name = 'before-the-mistake'\n"
                       "recovery_target_action = 'promote'\narchive_mode = off\n")
        (base / "recovery.signal").touch()
        if os.geteuid() == 0:
            shutil.chown(base / "recovery.signal", "postgres")
        port = free_port()
        started = subprocess.run(_as_postgres([
            f"{bindir}/pg_ctl", "-D", str(base), "-l", str(work / "recovered.log"), "-w",
            "-o", f"-c listen_addresses=127.0.0.1 -p {port} -k {work} "
            "-c max_connections=300", "start"]),  # (as the primary: recovery needs it)
            capture_output=True, text=True)
        assert started.returncode == 0, (work / "recovered.log").read_text()[-3000:]
        try:
            recovered = f"postgresql://postgres@127.0.0.1:{port}/usotsuki_pitr"
            with psycopg.connect(recovered) as conn:
                wait_for(lambda: not conn.execute("SELECT pg_is_in_recovery()").fetchone()[0],
                         "the end of the recovery")
            server = Server(recovered, "--deal-seed", SEED, "--bot-delay", "0.05")
            try:
                goes_on(server, table_id, tokens, seen, range(target["n"], target["n"] + 1))
            finally:
                server.stop()
        finally:
            subprocess.run(_as_postgres([f"{bindir}/pg_ctl", "-D", str(base), "-m",
                                         "immediate", "-w", "stop"]), capture_output=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
