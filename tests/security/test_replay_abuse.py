"""Finding 1: one anonymous replay request could exhaust memory and CPU and stall every
table (frames embedding the whole history, the limit checked after the work, the work
on the server's GIL). Each test replays the attack with its bound."""

from __future__ import annotations

import importlib
import json
import time
import tracemalloc
from typing import Any

import pytest
from fastapi.testclient import TestClient
from long_records import long_bluff_record, long_liar_record, traced_peak

from usotsuki import liar
from usotsuki.core.record import MAX_RECORD_BYTES
from usotsuki.server import replay
from usotsuki.server.app import create_app
from usotsuki.server.replay_service import ReplayLimits

MB = 1024 * 1024


@pytest.fixture(scope="module")
def longest_bluff() -> dict[str, Any]:
    """The longest legal Bluff game: 8 players, 6 cards, every call made (235 KB)."""
    return long_bluff_record(players=8, max_cards=6)


def frame_sizes(record: dict[str, Any]) -> list[int]:
    return [len(json.dumps(f)) for f in replay.frames(record)["frames"]]


def test_frames_cost_the_same_early_and_late() -> None:
    """A frame's size does not grow with the rounds before it (it did: each embedded
    every earlier round, quadratic in the game's length)."""
    sizes = frame_sizes(long_bluff_record(players=3, max_cards=2))
    # A challenge's frame adds its round's result (at most 326 calls): bounded too.
    assert max(sizes) < 16_000 and sorted(sizes)[len(sizes) // 2] < 1000
    late, early = sizes[-len(sizes) // 4:], sizes[:len(sizes) // 4]
    assert sum(late) / len(late) < 1.5 * sum(early) / len(early)


def test_liar_frames_cost_the_same_early_and_late() -> None:
    sizes = frame_sizes(long_liar_record(turn_limit=1500))
    assert len(sizes) > 1000
    assert max(sizes) < 4000
    late, early = sizes[-len(sizes) // 4:], sizes[:len(sizes) // 4]
    assert sum(late) / len(late) < 1.5 * sum(early) / len(early)


def test_step_limit_is_checked_before_any_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record over the step limit is refused without being folded at all."""
    record = long_liar_record(turn_limit=10)
    record["games"][0]["actions"] = ["pass"] * replay.MAX_STEPS["liar"]

    def never(*_: Any) -> Any:
        raise AssertionError("the record was replayed before its size was checked")

    monkeypatch.setattr(liar, "replay", never)  # the one fold that builds frames
    with pytest.raises(replay.NotReplayable) as refused:
        replay.frames(record)
    assert refused.value.code == "too_large"


@pytest.mark.parametrize(("game", "places"), [
    ("bluff", ("usotsuki.bluff.record.apply", "usotsuki.bluff.apply")),
    ("liar", ("usotsuki.liar.record.apply", "usotsuki.liar.match.apply")),
])
def test_frames_are_built_in_the_one_replay_that_checks_the_record(
        monkeypatch: pytest.MonkeyPatch, game: str, places: tuple[str, str]) -> None:
    """Each action is applied once: the frames follow the record's own replay (the
    record module), not a second fold through the sessions (which apply through the
    package or the match)."""
    record = (long_bluff_record(players=3, max_cards=2) if game == "bluff"
              else long_liar_record(turn_limit=300))
    applied = 0
    real = importlib.import_module(f"usotsuki.{game}.state").apply

    def counted(*args: Any) -> Any:
        nonlocal applied
        applied += 1
        return real(*args)

    for place in places:
        monkeypatch.setattr(place, counted)
    entries = record["rounds" if game == "bluff" else "games"]
    actions = sum(len(entry["actions"]) for entry in entries)
    assert len(replay.frames(record)["frames"]) == actions + len(entries)
    assert applied == actions


def test_oversized_or_deep_record_refused_before_parsing(client: TestClient) -> None:
    r = client.post("/api/replay", content=b" " * (MAX_RECORD_BYTES + 1))
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    r = client.post("/api/replay", content=b"[" * 5000 + b"]" * 5000)
    assert r.status_code == 413 and "nests deeper" in r.json()["message"]


def test_longest_legal_bluff_record_within_bounds(longest_bluff: dict[str, Any]) -> None:
    """Any record the limits accept is answered within bounded size and memory (100 MB).
    Its time (target 2 s of CPU) is a figure of ``make bench`` (benchmarks/replay_bench.py),
    not a timed test; the service's deadline, tested below, is what stops a slow one."""
    raw = json.dumps(longest_bluff).encode()
    assert len(raw) > 200_000
    out = replay.frames_json(raw)
    assert len(out) < 20 * MB
    assert traced_peak(lambda: replay.frames_json(raw)) < 100 * MB


def test_longest_accepted_liar_record_within_bounds() -> None:
    record = long_liar_record(turn_limit=replay.MAX_STEPS["liar"] - 1)
    raw = json.dumps(record).encode()
    out = replay.frames_json(raw)
    frames = json.loads(out)["frames"]
    assert len(frames) >= replay.MAX_STEPS["liar"] - 1  # one frame a step at least
    assert len(out) < 20 * MB


def test_replay_work_is_not_done_in_the_server_process() -> None:
    """The 20 KB record that cost the server 2 s and 165 MB: the server process now only
    carries the body and the answer; the frames are built in a worker process."""
    raw = json.dumps(long_bluff_record(players=2, max_cards=4)).encode()
    with TestClient(create_app(bot_delay=0)) as c:
        assert c.post("/api/replay", content=b"{}").status_code == 400  # workers warm
        tracemalloc.start()
        try:
            r = c.post("/api/replay", content=raw)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert r.status_code == 200, r.text
    assert len(r.json()["frames"]) == 1192
    assert peak < 4 * len(r.content) + 8 * MB


def test_replay_past_its_deadline_is_stopped(longest_bluff: dict[str, Any]) -> None:
    """The worker is killed at the deadline; the next replay is served by a new one."""
    with TestClient(create_app(bot_delay=0, replay_limits=ReplayLimits(deadline=0.05))) as c:
        r = c.post("/api/replay", json=longest_bluff)
        assert r.status_code == 413 and r.json()["error"] == "too_costly", r.text
    small = long_bluff_record(players=2, max_cards=1)
    with TestClient(create_app(bot_delay=0, replay_limits=ReplayLimits(deadline=30))) as c:
        assert c.post("/api/replay", json=longest_bluff).status_code == 200
        assert c.post("/api/replay", json=small).status_code == 200


def test_replay_over_its_memory_bound_is_stopped(longest_bluff: dict[str, Any]) -> None:
    with TestClient(create_app(bot_delay=0, replay_limits=ReplayLimits(memory=4 * MB))) as c:
        r = c.post("/api/replay", json=longest_bluff)
        assert r.status_code == 413 and r.json()["error"] == "too_costly", r.text


def test_finished_game_frames_are_cached(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "bluff", "seats": [{"bot": "random"}] * 2})
    table = r.json()
    client.post(f"/api/tables/{table['table_id']}/start", json={"token": table["host_token"]})
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{table['table_id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish in 20 s"
        time.sleep(0.01)
    url = f"/api/tables/{table['table_id']}/games/0/replay"
    first = client.get(url)
    assert first.status_code == 200
    service = client.app.state.replays  # type: ignore[attr-defined]
    assert service.stats()["cached"] == 1

    def no_more_work(_raw: bytes) -> Any:
        raise AssertionError("a cached game was replayed again")

    service._run = no_more_work
    assert client.get(url).content == first.content


def test_too_many_replays_at_once_are_refused_not_queued() -> None:
    records = [long_bluff_record(players=3, max_cards=2, seed=s) for s in range(3)]
    limits = ReplayLimits(pending=1)
    with TestClient(create_app(bot_delay=0, replay_limits=limits)) as c:
        import concurrent.futures

        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            answers = list(pool.map(lambda rec: c.post("/api/replay", json=rec), records))
    codes = sorted(a.status_code for a in answers)
    assert 200 in codes and 503 in codes
    busy = next(a for a in answers if a.status_code == 503)
    assert busy.json()["error"] == "busy" and busy.headers["retry-after"]
