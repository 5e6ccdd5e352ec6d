"""The lobby: every table by public id and invite code, loaded on first use, unloaded
when nobody needs it or when it expires; quotas on creating tables and on bot-only games.

Nothing is replayed at start-up: the server listens at once, and a table's log is read
and folded (in a thread) the first time someone asks for the table. Memory holds only
the tables somebody needs: a table with no socket here and nothing due (no bot's turn
or person's turn clock timed, no game of bots only waiting for room) is unloaded once
unused for ``unload_seconds`` (a game in play) or ``linger_seconds`` (a game over, or
none started yet: its players saw the results and may ask for a rematch meanwhile); a
later use loads it again from the log, deals due dealt and bots woken. A table without
any command for ``idle_seconds`` expires: it is unloaded, its sockets are told so, and
it is never loaded again (its rows stay in the store, with its records).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from usotsuki.games import ENTRIES
from usotsuki.liar.rules import MAX_HAND_SIZE
from usotsuki.server.auth import new_token, token_hash
from usotsuki.server.bot_runner import BotRunner
from usotsuki.server.config import Clock, Refused, Settings
from usotsuki.server.history import GameKeeper, bot_player, finished_game, installed_rating_update
from usotsuki.server.listings import Listings
from usotsuki.server.store import SeatRow, Store, TableRow
from usotsuki.server.table import Table

log = logging.getLogger("usotsuki.server")

T = TypeVar("T")

WINDOW = 60.0  # seconds of the per-address creation quota


def _check_rated(config: dict[str, Any], bots: list[str | None]) -> None:
    """A rated table (docs/ratings.md) seats a person at least (games of bots only are
    never rated) and has a turn clock (a person who stalls loses time, not the game)."""
    if all(b is not None for b in bots):
        raise Refused("bad_rated", "a rated table needs a person's seat: games of bots only "
                      "are never rated", params={"needs": "person"})
    if config.get("turn_seconds") is None:
        raise Refused("bad_rated", "a rated table needs a turn clock: set turn_seconds",
                      params={"needs": "turn_seconds"})


ADVISER_DEADLINE = 15.0  # seconds for a suggestion (the worker's first imports included)

class Lobby:
    def __init__(self, store: Store, settings: Settings, clock: Clock,
                 runner: BotRunner | None = None) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.runner = runner if runner is not None else BotRunner(
            clock, settings.bot_workers, settings.bot_deadline, settings.bot_nice,
            idle=settings.bot_idle)
        # The arena's house bots (arena.py) think in a pool of their own, always in the
        # idle class: its tables never take CPU time from people's tables or their bots.
        # Starved of CPU by a busy server, they have the arena's turn clock to answer.
        self.arena_runner = BotRunner(
            clock, 1, max(settings.bot_deadline, settings.arena_turn_seconds),
            settings.bot_nice, idle=True)
        # The suggested move (server.advice) in a process of its own, reniced but never
        # idle-class: a person waits for it, and an idle worker starved past its deadline
        # is replaced and starts cold again. Started on the first suggestion.
        self.adviser = BotRunner(clock, 1, ADVISER_DEADLINE, settings.bot_nice, idle=False)
        self.by_id: dict[str, Table] = {}
        self.by_invite: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Task[Table]] = {}
        self._created: dict[str, deque[float]] = {}  # address -> times of its creations
        self._sweeper: asyncio.Task[None] | None = None
        self._bot_starts = 0  # bot-only games being started (their commit is awaited)
        # Each table times its actions' phases with this (``Metrics.observe_phase``).
        self.timing: Callable[[str, float], None] | None = None
        self.keeper = GameKeeper(store, installed_rating_update())  # finished games kept
        # Each table's row in the lobby's listings, and the lobby's live feed.
        self.listings = Listings(store, settings, clock, lambda: list(self.by_id.values()))

    # start and stop

    async def start(self) -> None:
        """Start the expiry sweep. No table is loaded: each is, on first use."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        self.listings.start()
        if self.settings.bot_warm:
            self.runner.warm()
            self.adviser.warm()

    async def _sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(self.settings.sweep_seconds)
            try:
                self.sweep()
            except Exception:  # one table's trouble must not end the sweeps for good
                log.exception("the sweep of unused and expired tables failed")

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.listings.stop()
        for table in self.by_id.values():
            table.stop()
        self.runner.close()
        self.arena_runner.close()
        self.adviser.close()

    # finding tables

    def _expired(self, active: float) -> bool:
        return self.clock.time() - active > self.settings.idle_seconds

    def _expired_refusal(self) -> Refused:
        hours = self.settings.idle_seconds / 3600
        return Refused("expired", f"this table expired after {hours:g} hours without play",
                       410, {"hours": hours})

    async def find(self, table_id: str) -> Table | None:
        """The table with this public id, loaded if need be; None if unknown or expired."""
        with contextlib.suppress(Refused):
            return await self.get(table_id)
        return None

    async def get(self, table_id: str) -> Table:
        table = self.by_id.get(table_id)
        if table is not None:
            return self._used(table)
        row = await self.store.call(self.store.find_table, public_id=table_id)
        if row is None:
            raise Refused("not_found", f"no table {table_id!r}", 404)
        return await self._load(row)

    async def invited(self, invite: str) -> Table:
        table = self.by_invite.get(invite)
        if table is not None:
            return self._used(table)
        row = await self.store.call(self.store.find_table, invite=invite)
        if row is None:
            raise Refused("not_found", "no table has this invite code", 404)
        return await self._load(row)

    async def _load(self, row: TableRow) -> Table:
        if self._expired(row.active):
            raise self._expired_refusal()
        table = self.by_id.get(row.public_id)
        if table is not None:
            return self._used(table)
        task = self._loading.get(row.public_id)
        if task is None:  # one load per table, however many ask at once
            task = asyncio.ensure_future(self._build(row))
            self._loading[row.public_id] = task
            task.add_done_callback(lambda _: self._loading.pop(row.public_id, None))
        return self._used(await asyncio.shield(task))

    def _used(self, table: Table) -> Table:
        """``table``, asked for now (it stays loaded a while: ``unused``)."""
        table.used = self.clock.time()
        return table

    async def _build(self, row: TableRow) -> Table:
        seats = await self.store.call(self.store.load_seats, row.pk)
        entries = await self.store.call(self.store.load_log, row.pk)
        table = self._new_table(row, seats)
        # Folding a long log is CPU work: in a thread, the loop keeps its turns.
        await asyncio.to_thread(table.replay, entries)
        self._add(table)
        await self._loaded(table)
        try:  # a game whose write was lost (a crash after its last action) is kept now
            await self.keeper.catch_up(table)
        except Exception:  # the database away: the next load tries again
            log.warning("table %s: finished games not checked", table.public_id,
                        exc_info=True)
        return table

    async def _loaded(self, table: Table) -> None:
        """A table read from the log carries on: deals due are dealt, bots woken."""
        await table.resume()

    def _new_table(self, row: TableRow, seats: list[SeatRow]) -> Table:
        """A table object (the cluster's lobby makes ones that know their owner)."""
        return Table(row, seats, self.store, self.settings, self.clock, self.runner_for(row))

    def runner_for(self, row: TableRow) -> BotRunner:
        """The bot pool a table's bots think in: the arena's own for an arena table."""
        return self.arena_runner if row.config.get("arena") else self.runner

    def _add(self, table: Table) -> None:
        self._used(table)
        table.timing = self.timing
        table.may_play_bots = self._may_play_bots
        table.ended = self._game_ended
        table.listed = self.listings.changed
        self.by_id[table.public_id] = table
        self.by_invite[table.row.invite] = table

    # creating tables, with quotas

    def _reserve(self, address: str) -> float:
        """Count a creation against the address's per-minute quota, or refuse it."""
        now = self.clock.time()
        window = self._created.setdefault(address, deque())
        while window and window[0] <= now - WINDOW:
            window.popleft()
        if len(window) >= self.settings.tables_per_minute:
            wait = math.ceil(window[0] + WINDOW - now)
            raise Refused("too_many_tables", f"at most {self.settings.tables_per_minute} "
                          f"new tables a minute from one address: try again in {wait} s", 429,
                          {"max": self.settings.tables_per_minute, "wait": wait})
        window.append(now)
        return now

    def bot_games(self, address: str | None = None, besides: Table | None = None) -> int:
        """Bot-only games played here now (tables that became all-bot when their people
        left count too; parked ones do not), those of ``address``'s tables if given, not
        counting ``besides``; with the starts under way."""
        playing = sum(1 for t in self.by_id.values()
                      if t.bots_only and t.playing and not t.parked and t is not besides
                      and (address is None or t.row.creator == address))
        return playing + (self._bot_starts if address is None else 0)

    async def shared_bot_games(self, address: str | None) -> tuple[int, int]:
        """Bot-only games other workers play now: (all, ``address``'s). None here."""
        return 0, 0

    def _bot_room(self, table: Table, others: tuple[int, int] = (0, 0)) -> str | None:
        """Why ``table`` may not play a game of bots only now (None: it may): the cap
        over all addresses, or its creator's share of it."""
        if self.bot_games(besides=table) + others[0] >= self.settings.bot_tables:
            return "all"
        address = table.row.creator
        if (address is not None and self.bot_games(address, besides=table) + others[1]
                >= self.settings.bot_tables_per_address):
            return "address"
        return None

    def _check_bot_games(self, table: Table, others: tuple[int, int] = (0, 0)) -> None:
        why = self._bot_room(table, others)
        if why == "all":
            raise Refused("too_many_bot_games", f"{self.settings.bot_tables} games of bots "
                          "only are being played already: try again when one has ended",
                          429, {"max": self.settings.bot_tables})
        if why == "address":
            raise Refused("too_many_bot_games", f"one address's tables may play "
                          f"{self.settings.bot_tables_per_address} games of bots only at "
                          "once: try again when one has ended", 429,
                          {"max": self.settings.bot_tables_per_address})

    def _may_play_bots(self, table: Table) -> bool:
        """Asked when the last person leaves a game in play: may its bots play it on now?
        (Else the table is parked until there is room.)"""
        return self._bot_room(table) is None

    def _game_ended(self, table: Table) -> None:
        slot = table.current
        if table.writer and slot is not None:  # kept once, by the table's writer
            try:
                self.keeper.game_ended(finished_game(table, slot.number, table.active))
            except Exception:  # never the players' trouble: the next load keeps it
                log.exception("table %s: game %d not kept", table.public_id, slot.number)
        if table.bots_only:  # a game of bots only ended: room for a parked one
            self._unpark()

    def _unpark(self) -> None:
        """Parked tables carry on, oldest first, while there is room."""
        for table in sorted((t for t in self.by_id.values() if t.parked and t.playing),
                            key=lambda t: t.active):
            if self._bot_room(table) is None:
                table.unpark()

    def _rules(self, game: str, rules: dict[str, Any]) -> dict[str, Any]:
        entry = ENTRIES.get(game)  # (an unknown game is refused by the table's config)
        if entry is None:
            return rules
        size = rules.get("hand_size")
        if isinstance(size, int) and size > MAX_HAND_SIZE:  # L3 would deal the whole deck
            raise Refused("bad_rules", f"hand_size is at most {MAX_HAND_SIZE} at this "
                          "server's tables (L3: no table can deal a larger hand; deal_all "
                          "deals the whole deck)", params={"max_hand_size": MAX_HAND_SIZE,
                                                            "rules": ["L3"]})
        if not entry.turn_limited:
            return rules
        limit = rules.get("turn_limit")
        if limit is None:  # L11: a live Liar Game always ends
            return {**rules, "turn_limit": self.settings.liar_turn_limit}
        if isinstance(limit, int) and limit > self.settings.max_turn_limit:
            raise Refused("bad_rules", f"turn_limit is at most {self.settings.max_turn_limit} "
                          "on this server (L11)", params={"max_turn_limit":
                                                          self.settings.max_turn_limit,
                                                          "rules": ["L11"]})
        return rules

    async def create(self, game: str, config: dict[str, Any], bots: list[str | None],
                     address: str | None = None) -> tuple[Table, str]:
        """A new table; ``address`` (the client's) is held to the creation quotas."""
        config = {**config, "rules": self._rules(game, config["rules"])}
        if config.get("rated"):
            _check_rated(config, bots)
        if all(b is not None for b in bots) and self.bot_games() >= self.settings.bot_tables:
            raise Refused("too_many_bot_games", f"{self.settings.bot_tables} games of bots "
                          "only are being played already: try again when one has ended",
                          429, {"max": self.settings.bot_tables})
        now = self._reserve(address) if address is not None else self.clock.time()
        try:
            if address is not None:
                open_tables = await self.store.call(
                    self.store.count_tables, address, now - self.settings.idle_seconds)
                if open_tables >= self.settings.open_tables:
                    raise Refused("too_many_open_tables", f"one address may have "
                                  f"{self.settings.open_tables} tables open at once; they "
                                  "close after "
                                  f"{self.settings.idle_seconds / 3600:g} hours without play",
                                  429, {"max": self.settings.open_tables,
                                        "hours": self.settings.idle_seconds / 3600})
            host_token = new_token()
            public_id, invite = secrets.token_urlsafe(9), secrets.token_urlsafe(12)
            pk = await self.store.call(self.store.create_table, public_id, invite,
                                       token_hash(host_token), game, config, bots, address,
                                       now, [None if b is None else bot_player(game, b)
                                             for b in bots])
        except BaseException:
            if address is not None:  # refused or failed: not a creation
                with contextlib.suppress(ValueError):
                    self._created[address].remove(now)
            raise
        row = TableRow(pk, public_id, invite, token_hash(host_token), game, config, address,
                       now)
        seats = await self.store.call(self.store.load_seats, pk)
        table = self._new_table(row, seats)
        self._add(table)
        table.list_changed()
        return table, host_token

    async def start_game(self, table: Table, rematch: bool) -> int:
        """Start a game at ``table`` now, within the quotas of bot-only games (over all
        addresses, and of its creator's address)."""
        return await self._within_quota(table, lambda check: table.start(rematch, check))

    async def answer_rematch(self, table: Table, seat: int | None, holder: str | None,
                             accept: bool) -> int | None:
        """A person's answer to the rematch offer (``Table.answer_rematch``); the game it
        starts, if any, within the quotas of bot-only games."""
        return await self._within_quota(
            table, lambda check: table.answer_rematch(seat, holder, accept, check))

    async def _within_quota(self, table: Table,
                            run: Callable[[Callable[[Table], None] | None], Awaitable[T]]) -> T:
        if not table.bots_only:
            return await run(None)
        others = await self.shared_bot_games(table.row.creator)
        reserved = False

        def check(_: Table) -> None:  # under the table's lock, once the start is valid
            nonlocal reserved
            self._check_bot_games(table, others)
            self._bot_starts += 1
            reserved = True

        try:
            return await run(check)
        finally:
            if reserved:
                self._bot_starts -= 1

    # expiry

    def sweep(self) -> list[str]:
        """Unload every table idle for longer than ``idle_seconds`` (the ids of those,
        returned) and every table nobody needs (``unused``), and let parked tables carry
        on where there is room."""
        self._unpark()
        self.keeper.retry()
        gone = []
        for table in list(self.by_id.values()):
            if self._expired(table.active) and not table.lock.locked():
                self._unload(table)
                gone.append(table.public_id)
        self.unload_unused()
        cutoff = self.clock.time() - WINDOW
        for address, window in list(self._created.items()):
            if not window or window[-1] <= cutoff:
                del self._created[address]
        return gone

    def _unload(self, table: Table) -> None:
        log.info("table %s expired", table.public_id)
        table.audience.close_all({"type": "error", "code": "expired",
                                  "message": self._expired_refusal().message})
        self.listings.closed(table)
        self._drop(table)

    # tables nobody needs leave memory

    def in_play(self) -> int:
        """Tables loaded here whose game is in play and written here."""
        return sum(1 for t in self.by_id.values() if t.writer and t.playing)

    def unused(self, table: Table) -> bool:
        """Whether nobody needs ``table`` in memory now: no socket here, no command
        under way, nothing due, and unused for ``unload_seconds`` (a game in play here)
        or ``linger_seconds`` (any other)."""
        now = self.clock.time()
        if table.clients:  # (a socket is a use: the linger counts from its last sweep)
            table.used = now
            return False
        if table.lock.locked() or table.due:
            return False
        wait = (self.settings.unload_seconds if table.writer and table.playing
                else self.settings.linger_seconds)
        return now - max(table.used, table.active) >= wait

    def unload_unused(self) -> list[str]:
        """Unload every table nobody needs (``unused``): the ids of those unloaded."""
        gone = [t for t in list(self.by_id.values()) if self.unused(t)]
        for table in gone:
            log.debug("table %s unloaded (unused)", table.public_id)
            self._drop(table)
        return [t.public_id for t in gone]

    def _drop(self, table: Table) -> None:
        """Take the table out of memory: a later use loads a new copy from the log."""
        table.retired = True
        table.stop()
        self.listings.forget(table)
        self.by_id.pop(table.public_id, None)
        self.by_invite.pop(table.row.invite, None)
