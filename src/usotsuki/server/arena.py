"""The arena: outside bots that seek a game (``POST /api/bot/seek``) are seated at public
tables with each other and the house bots ``easy`` to ``expert``, the arena's reference
points, and rated in a pool of their own (``arena:<game>`` in ``ratings``).

A seek is one row of ``arena_seeks`` per bot (bot_tables.py); a bot is *online* while it
polls its events (``GET /api/bot/events`` marks its seek seen): a seek not seen for
``STALE_SECONDS`` is dropped. A pass (every ``PASS_SECONDS`` on every worker, and after
each seek) takes the arena's PostgreSQL advisory lock for its transaction (one scheduler
in the cluster; on SQLite one worker, its own lock), drops stale seeks, marks the arena's
tables whose game was kept as finished, names those in play that went quiet (a restarted
server loads no table until it is used: the pass loads them, and their games carry on),
and claims as many tables as the cap (``serve --arena-tables``) leaves room for. Each
table is made outside the lock with ``seating.seated_table`` (public, chat and hints
off, the arena's turn clock, one game; ``"arena": true``, which the history reads to
rate it in the arena's pool), then each bot's seek row gets the table and each bot a
``game`` event with its seat (stored in its inbox before anyone is told). A seated bot
seeks again to play on; seeks made while its games play are seated as well (a bot may
play several arena games at once).

House bots at arena tables think in the lobby's arena pool (``Lobby.arena_runner``, the
idle CPU class) and wait the server's bot delay, as at people's tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from usotsuki.bots import bot_names
from usotsuki.server.bot_tables import arena_seeks, arena_tables
from usotsuki.server.config import Clock, Refused, Settings
from usotsuki.server.health import unreachable
from usotsuki.server.history import bot_player, rating_pool
from usotsuki.server.lobby import Lobby
from usotsuki.server.matching import PRESETS
from usotsuki.server.player_tables import played_games, ratings
from usotsuki.server.seating import Sitter, seated_table
from usotsuki.server.store import Store, tables
from usotsuki.server.table import Table

log = logging.getLogger(__name__)

LOCK_KEY = 0x6172656E  # the advisory lock of the arena's scheduler ("aren")
PASS_SECONDS = 1.0  # every worker's periodic pass
STALE_SECONDS = 30.0  # a seek whose bot has not polled its events for this long ends
CLAIM_SECONDS = 120.0  # a claim older than this (its worker died) goes back to waiting
TABLE_HOURS = 6.0  # an arena table unfinished this long (expired) no longer counts
STALLED_SECONDS = 120.0  # an arena table without an entry this long (and 3 turn clocks)
PENDING = "pending:"
HOUSE_LEVELS = ("easy", "normal", "hard", "expert")
"""The house bots of the arena, its reference points: every level gets games."""
ANY_MOST = 4  # seats of a table for seeks of any number of players
_shuffle = random.SystemRandom().shuffle

Notify = Callable[[str, dict[str, Any]], Awaitable[Any]]
"""Tells a bot an event (``BotInbox.notify``: stored in its inbox, then its waiters woken)."""


@dataclass(frozen=True)
class ArenaSeek:
    player_id: str
    name: str
    game: str
    players: int | None  # None: any number
    preset: str
    rated: bool
    since: float = 0.0

    @property
    def kind(self) -> tuple[str, str, bool]:
        return (self.game, self.preset, self.rated)


@dataclass(frozen=True)
class ArenaTable:
    """A table to make: each seat a seeking bot or a house level."""

    game: str
    preset: str
    rated: bool
    seats: tuple[ArenaSeek | str, ...]

    @property
    def bots(self) -> list[ArenaSeek]:
        return [s for s in self.seats if isinstance(s, ArenaSeek)]


def house_levels(game: str) -> list[str]:
    names = bot_names(game)
    return [level for level in HOUSE_LEVELS if level in names]


def plan(seeks: Sequence[ArenaSeek], room: int,
         played: dict[str, dict[str, int]]) -> list[ArenaTable]:
    """Up to ``room`` tables for the waiting ``seeks`` (the oldest anchor a table): the
    anchor's number of seats, or for "any" up to ``ANY_MOST`` as other such seeks wait;
    the other seeks of its kind that fit, and at least one house bot, the levels with the
    fewest arena games first (``played``: per game, games by level; updated here)."""
    waiting = sorted(seeks, key=lambda s: (s.since, s.player_id))
    taken: set[str] = set()
    tables: list[ArenaTable] = []
    for anchor in waiting:
        if len(tables) >= room:
            break
        if anchor.player_id in taken:
            continue
        fits = [s for s in waiting if s.player_id not in taken and s is not anchor
                and s.kind == anchor.kind and s.players in (None, anchor.players)]
        size = anchor.players or min(ANY_MOST, len(fits) + 2)
        bots = [anchor, *fits[:size - 2]]
        counts = played.setdefault(anchor.game, {})
        levels = sorted(house_levels(anchor.game),
                        key=lambda lv: (counts.get(lv, 0), HOUSE_LEVELS.index(lv)))
        house = [levels[i % len(levels)] for i in range(size - len(bots))]
        for level in house:
            counts[level] = counts.get(level, 0) + 1
        tables.append(ArenaTable(anchor.game, anchor.preset, anchor.rated,
                                 (*bots, *house)))
        taken.update(s.player_id for s in bots)
    return tables


# ---- the store's side (blocking; run in the store's threads) ----

def put_seek(engine: Engine, seek: ArenaSeek, now: float) -> bool:
    """Start (or restart) the bot's seek, in one statement (two seeks at once leave one
    row); False while a table is being made for it."""
    values = {"game": seek.game, "players": seek.players, "preset": seek.preset,
              "rated": seek.rated, "name": seek.name, "since": now, "seen": now,
              "table_id": None}
    with engine.begin() as conn:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        done = conn.execute(dialect.insert(arena_seeks)
                            .values(player_id=seek.player_id, **values)
                            .on_conflict_do_update(
                                index_elements=["player_id"], set_=values,
                                where=arena_seeks.c.table_id.is_(None)
                                | ~arena_seeks.c.table_id.startswith(PENDING))
                            .returning(arena_seeks.c.player_id))
        return done.first() is not None


def seek_of(engine: Engine, player_id: str, now: float) -> Any:
    """The bot's seek row (None: none), marked seen."""
    with engine.begin() as conn:
        conn.execute(update(arena_seeks).where(arena_seeks.c.player_id == player_id)
                     .values(seen=now))
        return conn.execute(select(arena_seeks).where(
            arena_seeks.c.player_id == player_id)).first()


def drop_seek(engine: Engine, player_id: str) -> bool:
    """End the bot's waiting seek; False while a table is being made for it."""
    with engine.begin() as conn:
        done = conn.execute(delete(arena_seeks).where(
            arena_seeks.c.player_id == player_id,
            arena_seeks.c.table_id.is_(None) | ~arena_seeks.c.table_id.startswith(PENDING)))
        if done.rowcount:
            return True
        return conn.execute(select(arena_seeks.c.player_id).where(
            arena_seeks.c.player_id == player_id)).first() is None


def _house_games(conn: Any, games: set[str]) -> dict[str, dict[str, int]]:
    """Per game, the arena games each house level has played (its pool's count)."""
    out: dict[str, dict[str, int]] = {}
    for game in games:
        ids = {bot_player(game, level): level for level in house_levels(game)}
        out[game] = {ids[r.player_id]: r.games for r in conn.execute(
            select(ratings.c.player_id, ratings.c.games).where(
                ratings.c.game == rating_pool(game, True),
                ratings.c.player_id.in_(list(ids))))}
    return out


def in_play(engine: Engine, now: float) -> int:
    """The arena's tables in play over the cluster (those being made included)."""
    with engine.connect() as conn:
        return _in_play(conn, now)


def _in_play(conn: Any, now: float) -> int:
    tables = conn.execute(select(func.count()).select_from(arena_tables).where(
        arena_tables.c.finished.is_(None),
        arena_tables.c.created >= now - TABLE_HOURS * 3600)).scalar_one()
    making = conn.execute(select(func.count(func.distinct(arena_seeks.c.table_id))).where(
        arena_seeks.c.table_id.startswith(PENDING))).scalar_one()
    return int(tables) + int(making)


@dataclass(frozen=True)
class Claimed:
    """What a pass claimed: tables to make (each with its claim's tag), and the arena's
    tables in play that stalled (no entry for a while: loaded nowhere since a restart)."""

    tables: list[tuple[str, ArenaTable]]
    stalled: list[str]


def claim(engine: Engine, cap: int, now: float, stalled_after: float) -> Claimed:
    """One pass's transaction, under the arena's lock (another worker's pass holding it:
    nothing): stale seeks and claims dropped, finished tables marked, stalled ones named,
    then the tables the cap has room for planned and their seeks claimed."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql" and not conn.execute(
                select(func.pg_try_advisory_xact_lock(LOCK_KEY))).scalar():
            return Claimed([], [])
        conn.execute(delete(arena_seeks).where(
            arena_seeks.c.table_id.is_(None), arena_seeks.c.seen < now - STALE_SECONDS))
        pending = conn.execute(select(arena_seeks.c.player_id, arena_seeks.c.table_id)
                               .where(arena_seeks.c.table_id.startswith(PENDING))).all()
        lost = [r.player_id for r in pending
                if float(r.table_id[len(PENDING):].split("/")[0]) < now - CLAIM_SECONDS]
        if lost:
            conn.execute(update(arena_seeks).where(arena_seeks.c.player_id.in_(lost))
                         .values(table_id=None))
        open_pks = list(conn.execute(select(arena_tables.c.table_pk).where(
            arena_tables.c.finished.is_(None),
            arena_tables.c.created >= now - TABLE_HOURS * 3600)).scalars())
        if open_pks:  # (a few rows, each looked up in played_games' index)
            kept = list(conn.execute(select(played_games.c.table_pk).where(
                played_games.c.table_pk.in_(open_pks))).scalars())
            if kept:
                conn.execute(update(arena_tables).where(arena_tables.c.table_pk.in_(kept))
                             .values(finished=now))
        stalled = list(conn.execute(
            select(arena_tables.c.public_id)
            .join(tables, tables.c.pk == arena_tables.c.table_pk)
            .where(arena_tables.c.finished.is_(None),
                   arena_tables.c.created >= now - TABLE_HOURS * 3600,
                   tables.c.active < now - stalled_after)).scalars())
        room = cap - _in_play(conn, now)
        rows = [] if room <= 0 else conn.execute(
            select(arena_seeks).where(arena_seeks.c.table_id.is_(None))
            .order_by(arena_seeks.c.since)).all()
        if not rows:
            return Claimed([], stalled)
        seeks = [ArenaSeek(r.player_id, r.name, r.game, r.players, r.preset, r.rated,
                           r.since) for r in rows]
        claimed = []
        for number, table in enumerate(plan(seeks, room,
                                            _house_games(conn, {s.game for s in seeks}))):
            tag = f"{PENDING}{now:.3f}/{number}"
            conn.execute(update(arena_seeks).where(arena_seeks.c.player_id.in_(
                [b.player_id for b in table.bots])).values(table_id=tag))
            claimed.append((tag, table))
        return Claimed(claimed, stalled)


def settle(engine: Engine, tag: str, table_pk: int, table_id: str, game: str,
           now: float) -> None:
    """The claimed seeks are seated at their table, which counts against the cap."""
    with engine.begin() as conn:
        conn.execute(insert(arena_tables).values(table_pk=table_pk, public_id=table_id,
                                                 game=game, created=now, finished=None))
        conn.execute(update(arena_seeks).where(arena_seeks.c.table_id == tag)
                     .values(table_id=table_id, seen=now))


def give_back(engine: Engine, tag: str) -> None:
    """A claim whose table could not be made: its seeks wait again."""
    with engine.begin() as conn:
        conn.execute(update(arena_seeks).where(arena_seeks.c.table_id == tag)
                     .values(table_id=None))


# ---- the service ----

def check_seek(game: str, players: int | None, preset: str) -> None:
    """Refuse a seek the arena cannot seat."""
    if preset not in PRESETS.get(game, {}):
        raise Refused("bad_preset", f"no rules preset {preset!r} for {game} "
                      f"(presets: {', '.join(PRESETS.get(game, {}))})", 400,
                      {"presets": list(PRESETS.get(game, {}))})
    if players is not None and not 2 <= players <= 8:
        raise Refused("bad_request", "players: 2 to 8, or null for any number", 400)


def describe(row: Any, now: float) -> dict[str, Any]:
    """A seek as ``GET /api/bot/seek`` tells it."""
    if row is None:
        return {"state": "idle"}
    seek = {"game": row.game, "players": row.players, "preset": row.preset,
            "rated": row.rated}
    if row.table_id is not None and not row.table_id.startswith(PENDING):
        return {"state": "seated", "table_id": row.table_id, **seek}
    return {"state": "waiting", **seek, "waited": round(now - row.since, 3)}


class Arena:
    """One worker's arena: seeks, and the scheduler's passes (none with a cap of 0)."""

    def __init__(self, lobby: Lobby, store: Store, clock: Clock, settings: Settings,
                 notify: Notify) -> None:
        self.lobby = lobby
        self.store = store
        self.clock = clock
        self.settings = settings
        self.notify = notify
        self._lock = asyncio.Lock()  # one pass of this worker at a time
        self._passes = 0
        self._task: asyncio.Task[None] | None = None

    @property
    def open(self) -> bool:
        return self.settings.arena_tables > 0

    def start(self) -> None:
        if self.open:
            self._task = asyncio.get_running_loop().create_task(self._forever())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _forever(self) -> None:
        while True:
            await self.clock.sleep(PASS_SECONDS)
            try:
                await self.run_pass()
            except Exception as exc:  # the next pass tries again
                if unreachable(exc):
                    log.warning("an arena pass waits for the database: %s",
                                type(exc).__name__)
                else:
                    log.exception("an arena pass failed")

    # a bot's requests

    async def seek(self, seek: ArenaSeek) -> dict[str, Any]:
        if not self.open:
            raise Refused("arena_closed", "this server runs no arena", 503)
        check_seek(seek.game, seek.players, seek.preset)
        if not await self.store.call(put_seek, self.store.engine, seek, self.clock.time()):
            raise Refused("already_matched", "a table is being made for you already", 409)
        await self.run_pass()
        return await self.status(seek.player_id)

    async def status(self, player_id: str) -> dict[str, Any]:
        now = self.clock.time()
        return describe(await self.store.call(seek_of, self.store.engine, player_id, now),
                        now)

    async def cancel(self, player_id: str) -> None:
        if not await self.store.call(drop_seek, self.store.engine, player_id):
            raise Refused("already_matched", "a table is being made for you already", 409)

    # the passes

    async def run_pass(self) -> int:
        """A pass that begins after this call (one that began meanwhile serves it too):
        the tables it made. Only the claim is serialised; the tables are made side by
        side, outside the locks."""
        ticket = self._passes
        async with self._lock:
            if self._passes > ticket:
                return 0
            self._passes += 1
            claimed = await self.store.call(
                claim, self.store.engine, self.settings.arena_tables, self.clock.time(),
                max(STALLED_SECONDS, 3 * self.settings.arena_turn_seconds))
        for table_id in claimed.stalled:  # loading a table carries its game on
            try:
                await self.lobby.find(table_id)
            except Exception:
                log.exception("arena table %s could not be loaded", table_id)
        made = await asyncio.gather(*(self._make_or_give_back(tag, table)
                                      for tag, table in claimed.tables))
        return sum(made)

    async def _make_or_give_back(self, tag: str, planned: ArenaTable) -> bool:
        """Make a claimed table. Its seeks wait again only if it was not made: once its
        game began it is the bots' (it counts, and each is told its seat, however the
        bookkeeping after it fares; a claim left unsettled goes back after
        ``CLAIM_SECONDS``)."""
        try:
            table, seats = await self._seat(planned)
        except Exception:
            log.exception("an arena table could not be made")
            with contextlib.suppress(Exception):
                await self.store.call(give_back, self.store.engine, tag)
            return False
        try:
            await self.store.call(settle, self.store.engine, tag, table.row.pk,
                                  table.public_id, planned.game, self.clock.time())
        except Exception:
            log.exception("arena table %s: its seats not recorded", table.public_id)
        for player_id, (seat, token) in seats.items():
            try:
                await self.notify(player_id, {
                    "type": "game", "table_id": table.public_id, "seat": seat,
                    "token": token, "game": planned.game, "rated": planned.rated,
                    "arena": True})
            except Exception:  # its seat's clock plays for it: the game still ends
                log.exception("arena table %s: a bot not told its seat", table.public_id)
        return True

    async def _seat(self, planned: ArenaTable) -> tuple[Table, dict[str, tuple[int, str]]]:
        """The planned table made, its bots seated, its game begun."""
        config: dict[str, Any] = {
            "players": len(planned.seats), "rules": dict(PRESETS[planned.game][planned.preset]),
            "games": 1, "turn_seconds": self.settings.arena_turn_seconds,
            "visibility": "public", "chat": False, "hints": False, "arena": True}
        if planned.rated:
            config["rated"] = True
        order = list(planned.seats)
        _shuffle(order)  # who deals first is chance's, not the queue's
        return await seated_table(
            self.lobby, planned.game, config,
            [Sitter(s.player_id, s.name) if isinstance(s, ArenaSeek) else s for s in order])
