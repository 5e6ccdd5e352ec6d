"""Helpers of the server-core tests: a clock moved by hand, a store whose writes can be
held, bots that misbehave (module-level: the bot worker processes import them), and
tables played through the lobby in-process."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Awaitable
from typing import Any

from drive import choose
from waits import Deadline

from usotsuki.bluff import parse_action
from usotsuki.bots import Bot, make_bot
from usotsuki.server.bot_runner import BotRunner
from usotsuki.server.config import Settings
from usotsuki.server.lobby import Lobby
from usotsuki.server.store import Store
from usotsuki.server.table import Table
from usotsuki.server.wire import Client


class ManualClock:
    """Time moves only when a test says so; sleepers wake as it passes them."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> Awaitable[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, future))
        return future

    def sleeping(self) -> list[float]:
        """When each pending sleeper wakes."""
        self._sleepers = [(due, f) for due, f in self._sleepers if not f.done()]
        return [due for due, _ in self._sleepers]

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for due, future in self._sleepers:
            if due <= self.now and not future.done():
                future.set_result(None)
        self.sleeping()


class HeldStore(Store):
    """A store whose appends for one table wait until released (in the store's thread:
    the event loop goes on)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.hold_pk: int | None = None
        self.release = threading.Event()
        self.holding = threading.Event()  # set once a held append is waiting

    def append_many(self, table_pk: int, first: int,
                    entries: list[tuple[str, dict[str, Any]]], now: float | None = None) -> None:
        if table_pk == self.hold_pk:
            self.holding.set()
            self.release.wait(60)
        super().append_many(table_pk, first, entries, now)


class SlowBot:
    name = "slow"

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        time.sleep(3600)  # in a worker process: only the deadline ends it


class FaultyBot:
    name = "faulty"

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        raise RuntimeError(f"a bug, holding {view.to_json().get('hand')}")


class IllegalBot:
    name = "illegal"

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        # Bluff: a challenge when no call stands is refused (B6/B7); otherwise the
        # lowest legal action, so the game goes on
        return parse_action("challenge") if not view.calls else legal[0]


class PolicyBot:
    name = "policy"

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        import os
        raise RuntimeError(f"scheduling policy {os.sched_getscheduler(0)}, "
                           f"nice {os.nice(0)}")


def misbehaving_bots(game: str, name: str) -> Bot:
    """Bot names of the registry, and "slow", "faulty", "illegal", "policy"."""
    bots: dict[str, type[Any]] = {"slow": SlowBot, "faulty": FaultyBot,
                                  "illegal": IllegalBot, "policy": PolicyBot}
    if name in bots:
        bot: Bot = bots[name]()
        return bot
    return make_bot(game, name)


def new_lobby(store: Store, clock: ManualClock, **settings: Any) -> Lobby:
    the_settings = Settings(**{"bot_delay": 0.0, **settings})
    runner = BotRunner(clock, the_settings.bot_workers, the_settings.bot_deadline,
                       nice=0, factory=misbehaving_bots, idle=False)
    return Lobby(store, the_settings, clock, runner)


async def people_table(lobby: Lobby, game: str = "bluff", players: int = 2,
                       rules: dict[str, Any] | None = None, address: str | None = None,
                       start: bool = True) -> tuple[Table, list[str]]:
    config = {"players": players, "rules": rules or {}, "games": 1}
    table, _ = await lobby.create(game, config, [None] * players, address)
    tokens = [(await table.join(f"p{i}", i))[1] for i in range(players)]
    if start:
        await lobby.start_game(table, rematch=False)
    return table, tokens


async def bot_table(lobby: Lobby, bots: list[str], game: str = "bluff",
                    rules: dict[str, Any] | None = None) -> Table:
    config = {"players": len(bots), "rules": rules or {}, "games": 1}
    table, _ = await lobby.create(game, config, list(bots))
    return table


def holder(table: Table, seat: int) -> str:
    """The hash of the token holding ``seat`` (a person's): what its socket acts with."""
    held = table.seats[seat].token_hash
    assert held is not None, f"seat {seat} is not a person's"
    return held


async def play_one(table: Table, rng: random.Random) -> None:
    slot = table.current
    assert slot is not None and slot.session.to_move is not None
    seat = slot.session.to_move
    await table.act(seat, choose(table.state_message(seat), rng), holder(table, seat))


def watch(table: Table, seat: int | None = None, since: int = -1) -> Client:
    """A client of ``seat`` (None: a spectator) as the WebSocket route makes one."""
    client = Client(seat, holder=None if seat is None else holder(table, seat))
    table.clients.add(client)
    for text in table.events_since(seat, since):
        client.send_text(text)
    client.send(table.state_message(seat))
    return client


def drain(client: Client) -> list[dict[str, Any]]:
    """Every message waiting in the client's queue."""
    out = []
    while not client.queue.empty():
        text = client.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def next_event(client: Client, kind: str, timeout: float = 60) -> dict[str, Any]:
    """Wait for the next event of this type (the timeout only bounds a broken run)."""
    deadline = Deadline(f"an event of type {kind!r}", timeout)
    while True:
        try:
            text = await asyncio.wait_for(client.queue.get(), deadline.left())
        except TimeoutError:
            deadline.fail()
        assert text is not None, "the table closed the client"
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "event" and message["event"]["type"] == kind:
            return message["event"]
