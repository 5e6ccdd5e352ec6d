"""Issue 9, "a server that never blocks": store writes off the event loop yet committed
before published; bots think in worker processes with a deadline, and a bot's failure is
told publicly (a ``stand_in`` event) and logged, never hidden. Real databases: a SQLite
file, and the throwaway PostgreSQL server of test_postgres."""

from __future__ import annotations

import asyncio
import logging
import os
import random
from pathlib import Path

import pytest
from core_helpers import (
    HeldStore,
    ManualClock,
    bot_table,
    drain,
    holder,
    new_lobby,
    next_event,
    people_table,
    play_one,
    watch,
)
from waits import Deadline

from usotsuki.replay import replay_record
from usotsuki.server.bot_runner import BotFault, BotRunner


def test_an_action_is_published_only_after_its_write_returns(db_url: str) -> None:
    async def main() -> None:
        store = HeldStore(db_url)
        clock = ManualClock()
        lobby = new_lobby(store, clock)
        held, _ = await people_table(lobby, "bluff", 2)
        other, _ = await people_table(lobby, "bluff", 2)
        seats = [watch(held, 0), watch(held, 1), watch(held, None)]
        for c in seats:
            drain(c)
        store.hold_pk = held.row.pk
        before = (held.seq, len(held.events))
        acting = asyncio.ensure_future(play_one(held, random.Random(1)))
        await asyncio.to_thread(store.holding.wait, 30)  # the write is under way
        # The loop is free: this very coroutine runs, other tables answer.
        assert not acting.done()
        assert (held.seq, len(held.events)) == before
        assert all(drain(c) == [] for c in seats), "an event went out before its commit"
        spectator = watch(other, None)
        assert [m["type"] for m in drain(spectator)][-1] == "state"
        if "postgresql" in store.url:  # several writer threads: other tables commit on
            await play_one(other, random.Random(2))
            assert other.seq > 2
        store.release.set()
        await acting
        assert held.seq == before[0] + 1
        for c in seats:
            kinds = [m["type"] for m in drain(c)]
            assert kinds[0] == "event" and kinds[-1] == "state"
        # what was published is what was committed
        assert len(store.load_log(held.row.pk)) == held.seq
        lobby.stop()
        store.close()

    asyncio.run(main())


def test_commands_on_one_table_stay_in_order_while_writes_are_slow(tmp_path: Path) -> None:
    async def main() -> None:
        store = HeldStore(str(tmp_path / "s.sqlite3"))
        lobby = new_lobby(store, ManualClock())
        table, _ = await people_table(lobby, "bluff", 2)
        mover = table.current.session.to_move  # type: ignore[union-attr]
        store.hold_pk = table.row.pk
        first = asyncio.ensure_future(table.act(mover, "card 2", holder(table, mover)))
        await asyncio.to_thread(store.holding.wait, 30)
        # the same seat again, and the other seat: both wait for the lock, then are
        # judged on the state after the first action
        again = asyncio.ensure_future(table.act(mover, "card 3", holder(table, mover)))
        other = asyncio.ensure_future(table.act(1 - mover, "card 3", holder(table, 1 - mover)))
        await asyncio.sleep(0)
        assert not (first.done() or again.done() or other.done())
        store.release.set()
        await first
        results = await asyncio.gather(again, other, return_exceptions=True)
        assert getattr(results[0], "code", None) == "not_your_turn"
        assert not isinstance(results[1], BaseException)
        assert [e.data["action"] for e in store.load_log(table.row.pk)
                if e.kind == "action"] == ["card 2", "card 3"]
        lobby.stop()
        store.close()

    asyncio.run(main())


def test_a_slow_bot_does_not_stall_another_table_and_its_deadline_is_visible(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        store = HeldStore(str(tmp_path / "s.sqlite3"))
        clock = ManualClock()
        lobby = new_lobby(store, clock, bot_deadline=5.0)
        bots = await bot_table(lobby, ["slow", "slow"])
        spectator = watch(bots, None)
        await lobby.start_game(bots, rematch=False)
        deadline = Deadline("the slow bot's decision to start")
        while 5.0 + clock.now not in clock.sleeping():  # the decision is under way
            await asyncio.sleep(min(0.01, deadline.left()))
        seq = bots.seq
        people, _ = await people_table(lobby, "bluff", 3)
        rng = random.Random(4)
        for _ in range(30):  # while the bot thinks, a table of people plays on
            await play_one(people, rng)
        assert people.seq >= 30 and bots.seq == seq
        clock.advance(5.0)
        notice = await next_event(spectator, "stand_in")
        assert notice == {"type": "stand_in", "seat": notice["seat"], "bot": "slow",
                          "by": "random", "reason": "missed its 5 s deadline"}
        action = await next_event(spectator, "action")  # the stand-in played, once
        assert action["seat"] == notice["seat"]
        assert bots.seq == seq + 1 or bots.seq > seq  # deals may follow the action
        lobby.stop()
        store.close()

    with caplog.at_level(logging.WARNING, logger="usotsuki.server"):
        asyncio.run(main())
    assert any("slow bot" in r.message and "deadline" in r.message for r in caplog.records)


@pytest.mark.parametrize("bot,reason", [("faulty", "failed with an error"),
                                        ("illegal", "chose an illegal action")])
def test_a_bot_that_fails_falls_back_visibly_and_the_game_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, bot: str, reason: str) -> None:
    async def main() -> dict[str, object]:
        store = HeldStore(str(tmp_path / "s.sqlite3"))
        lobby = new_lobby(store, ManualClock())
        # dealer 1: seat 0 calls first (B4), where a challenge is illegal
        table = await bot_table(lobby, [bot, "random"], rules={"max_cards": 1, "dealer": 1})
        spectator = watch(table, None)
        await lobby.start_game(table, rematch=False)
        notice = await next_event(spectator, "stand_in")
        while table.playing:
            await next_event(spectator, "action")
        record = table.record(0)
        log = store.load_log(table.row.pk)
        lobby.stop()
        store.close()
        # every logged action was applied once: the record holds exactly them
        actions = [e for e in log if e.kind == "action"]
        assert sum(len(r["actions"]) for r in record["rounds"]) == len(actions)  # type: ignore[index]
        assert all(("stand_in" in e.data) == (e.data["seat"] == 0) for e in actions
                   if bot == "faulty")
        return {"notice": notice, "record": record}

    with caplog.at_level(logging.WARNING, logger="usotsuki.server"):
        out = asyncio.run(main())
    notice = out["notice"]
    assert notice == {"type": "stand_in", "seat": 0, "bot": bot, "by": "random",
                      "reason": reason}
    assert replay_record(out["record"])["finished"]  # type: ignore[arg-type]
    assert any(f"{bot} bot at seat 0 {reason}" in r.message for r in caplog.records)
    if bot == "faulty":  # the public notice never repeats the bot's message (its cards)
        assert any("holding" in r.message for r in caplog.records)
        assert "holding" not in str(notice)


def test_the_stand_in_notice_survives_a_restart(tmp_path: Path) -> None:
    """The notice is in the log, so a reloaded table numbers its events the same."""
    db = str(tmp_path / "s.sqlite3")

    async def first() -> tuple[str, list[str]]:
        store = HeldStore(db)
        lobby = new_lobby(store, ManualClock())
        table = await bot_table(lobby, ["faulty", "random"], rules={"max_cards": 1})
        spectator = watch(table, None)
        await lobby.start_game(table, rematch=False)
        while table.playing:
            await next_event(spectator, "action")
        events = table.events_since(None, -1)
        lobby.stop()
        store.close()
        return table.public_id, events

    async def second(table_id: str) -> list[str]:
        store = HeldStore(db)
        lobby = new_lobby(store, ManualClock())
        table = await lobby.get(table_id)
        events = table.events_since(None, -1)
        lobby.stop()
        store.close()
        return events

    table_id, events = asyncio.run(first())
    assert any('"stand_in"' in e for e in events)
    assert asyncio.run(second(table_id)) == events


@pytest.mark.parametrize("idle,policy,added_nice", [(True, 5, 0), (False, 0, 10)])
def test_bot_workers_yield_the_cpu_to_the_server(idle: bool, policy: int,
                                                 added_nice: int) -> None:
    """SCHED_IDLE (5) by default: the bots get only CPU time the server does not want.
    Niceness adds to the server's own (the suite may itself run reniced), up to 19."""
    from core_helpers import misbehaving_bots

    from usotsuki.bluff import BluffRules
    from usotsuki.session import BluffSession

    async def main() -> str:
        runner = BotRunner(ManualClock(), factory=misbehaving_bots, idle=idle, nice=10)
        session = BluffSession.create(BluffRules(players=2))
        try:
            await runner.decide("bluff", "policy", None, session.legal(), 1)
        except BotFault as fault:
            return fault.detail
        finally:
            runner.close()
        raise AssertionError("the bot answered")

    nice = min(19, os.nice(0) + added_nice)
    assert asyncio.run(main()) == f"RuntimeError: scheduling policy {policy}, nice {nice}"
