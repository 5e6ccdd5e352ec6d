"""Quick match ("Play now"): seeks kept in ``match_seekers``, matched by one matcher at a
time across workers, each match made a table with its people seated and its game begun.

A seek is one row per player (its primary key): a player waits in one queue at most,
and while their seat at a quick-match table is in a game in play they may not seek
again, so nobody is seated twice at once. A matching pass (after each seek, each
acceptance of bots, and every ``PASS_SECONDS`` on every worker) takes a PostgreSQL
advisory lock for its transaction (one matcher in the cluster; on SQLite, one worker, the
matchmaker's own lock), drops stale seeks, plans the tables (``server/matching.py``) and
claims their seekers (``table_id`` = ``pending:<time>``) before committing. The tables
are then made outside the lock: created, every person joined to their seat, the game
started; then each seeker's row gets the table's id and the seat (``seat_token``
``"<seat>:<token>"``), handed over by the seeker's next status request and cleared. A
table that cannot be made gives its seekers back to the queue; claims left by a worker
that died are given back after ``CLAIM_SECONDS``. A seated seeker's row goes after
``SEATED_SECONDS`` (their next seek replaces it sooner).

Status requests wait (long poll) for a change: a match made by this worker wakes them at
once, one made by another worker is seen within ``POLL_SECONDS`` (one read for all the
requests waiting at a worker). A worker runs one pass at a time, and the seeks that came
while it ran share the next: passes never queue up behind the lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy.exc
from sqlalchemy import Engine, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from usotsuki.bots import bot_names
from usotsuki.server.config import Clock, Refused
from usotsuki.server.health import unreachable
from usotsuki.server.history import bot_player
from usotsuki.server.lobby import Lobby
from usotsuki.server.matching import (
    ACCEPTED,
    BOT_LADDER,
    PRESETS,
    Match,
    Policy,
    Seeker,
    bot_near,
    plan,
)
from usotsuki.server.meet_tables import match_seekers
from usotsuki.server.player_tables import ratings
from usotsuki.server.ratings import NEW, shown
from usotsuki.server.seating import Sitter, seated_table
from usotsuki.server.store import Store
from usotsuki.server.watch import watch_forever

log = logging.getLogger(__name__)

LOCK_KEY = 0x75736F74  # the advisory lock of the matcher ("usot")
PASS_SECONDS = 1.0  # every worker's periodic pass (windows widen, offers fall due)
POLL_SECONDS = 0.2  # the waiting status requests look for seats made elsewhere
STALE_SECONDS = 30.0  # a seek without a status request for this long is dropped
SEATED_SECONDS = 6 * 3600.0  # a seated seeker's row is kept this long (no seek meanwhile)
CLAIM_SECONDS = 120.0  # a claim older than this (its worker died) goes back to the queue
PENDING = "pending:"
MAKING_SECONDS = 10.0  # a seek's answer waits this long for a table being made for it
SLOW_SECONDS = 1.0  # a pass's claim or a table's making logged when longer
_shuffle = random.SystemRandom().shuffle
TURN_SECONDS = 60.0  # quick-match tables have a turn clock (rated ones need it)


@dataclass(frozen=True)
class SeekSpec:
    game: str
    players: int | None
    preset: str
    rated: bool
    bots: str


# ---- the store's side (blocking; run in the store's threads) ----

def _row_seeker(row: Any) -> Seeker:
    return Seeker(row.player_id, row.name, row.game, row.players, row.preset, row.rated,
                  row.rating, row.bots, row.since)


def shown_rating(engine: Engine, player_id: str, game: str) -> float:
    with engine.connect() as conn:
        row = conn.execute(select(ratings.c.mu).where(
            ratings.c.player_id == player_id, ratings.c.game == game)).first()
    return NEW.shown if row is None else shown(row.mu)


def seek_row(engine: Engine, player_id: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(select(match_seekers).where(
            match_seekers.c.player_id == player_id)).first()


def put_seek(engine: Engine, player_id: str, name: str, spec: SeekSpec, rating: float,
             replaces: str | None, now: float) -> bool:
    """Start (or restart) the player's seek; False if they are being matched already. A
    previous seek still waiting is replaced, as is the row of the table ``replaces``
    (one whose game is over)."""
    try:
        with engine.begin() as conn:
            done: list[ColumnElement[bool]] = [match_seekers.c.table_id.is_(None)]
            if replaces is not None:
                done.append(match_seekers.c.table_id == replaces)
            conn.execute(delete(match_seekers).where(
                match_seekers.c.player_id == player_id, or_(*done)))
            conn.execute(insert(match_seekers).values(
                player_id=player_id, game=spec.game, players=spec.players,
                preset=spec.preset, rated=spec.rated, rating=rating, bots=spec.bots,
                name=name, since=now, seen=now, table_id=None, seat_token=None))
    except sqlalchemy.exc.IntegrityError:  # a row remains: claimed or matched
        return False
    return True


def seated_among(engine: Engine, player_ids: list[str]) -> list[str]:
    """Those of the players whose seat is ready to be handed over."""
    with engine.connect() as conn:
        return list(conn.execute(select(match_seekers.c.player_id).where(
            match_seekers.c.player_id.in_(player_ids),
            match_seekers.c.seat_token.is_not(None))).scalars())


def take_status(engine: Engine, player_id: str, now: float) -> Any:
    """The player's row (None: no seek), marked seen; a matched seat's token is handed
    over once: the row returned holds it, the stored row no more."""
    with engine.begin() as conn:
        row = conn.execute(select(match_seekers).where(
            match_seekers.c.player_id == player_id).with_for_update()).first()
        if row is None:
            return None
        changes: dict[str, Any] = {"seen": now}
        if row.seat_token is not None:
            changes["seat_token"] = None
        conn.execute(update(match_seekers).where(
            match_seekers.c.player_id == player_id).values(**changes))
        return row


def count_waiting(engine: Engine, game: str, preset: str, rated: bool) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(match_seekers).where(
            match_seekers.c.game == game, match_seekers.c.preset == preset,
            match_seekers.c.rated == rated, match_seekers.c.table_id.is_(None))).scalar_one())


def drop_seek(engine: Engine, player_id: str) -> bool:
    """End the player's waiting seek (or forget a seated one); False while it is being
    matched (the seat follows)."""
    with engine.begin() as conn:
        row = conn.execute(select(match_seekers.c.table_id, match_seekers.c.seat_token)
                           .where(match_seekers.c.player_id == player_id)
                           .with_for_update()).first()
        if row is None:
            return True
        if row.table_id is not None and (row.table_id.startswith(PENDING)
                                         or row.seat_token is not None):
            return False
        conn.execute(delete(match_seekers).where(match_seekers.c.player_id == player_id))
        return True


def accept_bots(engine: Engine, player_id: str) -> bool:
    with engine.begin() as conn:
        done = conn.execute(update(match_seekers).where(
            match_seekers.c.player_id == player_id, match_seekers.c.table_id.is_(None))
            .values(bots=ACCEPTED))
        return done.rowcount > 0


def _bot_levels(conn: Connection, games: set[str]) -> dict[str, dict[str, float]]:
    """Per game, the offered bot levels with their shown ratings (the ladder's figure for
    a level not rated yet)."""
    out: dict[str, dict[str, float]] = {}
    for game in games:
        levels = {level: BOT_LADDER.get(level, NEW.shown) for level in bot_names(game)
                  if level in BOT_LADDER}
        ids = {bot_player(game, level): level for level in levels}
        for row in conn.execute(select(ratings.c.player_id, ratings.c.mu).where(
                ratings.c.game == game, ratings.c.player_id.in_(list(ids)))):
            levels[ids[row.player_id]] = shown(row.mu)
        out[game] = levels
    return out


def bot_levels(engine: Engine, game: str) -> dict[str, float]:
    with engine.connect() as conn:
        return _bot_levels(conn, {game})[game]


def claim(engine: Engine, policy: Policy, now: float, wait: bool) -> list[tuple[str, Match]]:
    """One matching pass's transaction: under the matcher's lock (``wait``: for it;
    else nothing if another worker holds it), stale seeks dropped, stale claims given
    back, the tables planned and their seekers claimed. Each match with its claim."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            lock = func.pg_advisory_xact_lock if wait else func.pg_try_advisory_xact_lock
            got = conn.execute(select(lock(LOCK_KEY))).scalar()
            if not wait and not got:
                return []
        conn.execute(delete(match_seekers).where(
            match_seekers.c.table_id.is_(None), match_seekers.c.seen < now - STALE_SECONDS))
        conn.execute(delete(match_seekers).where(  # seated long ago: only history now
            match_seekers.c.table_id.not_like(f"{PENDING}%"),
            match_seekers.c.seen < now - SEATED_SECONDS))
        pending = conn.execute(select(match_seekers.c.player_id, match_seekers.c.table_id)
                               .where(match_seekers.c.table_id.like(f"{PENDING}%"))).all()
        lost = [r.player_id for r in pending
                if float(r.table_id[len(PENDING):].split("/")[0]) < now - CLAIM_SECONDS]
        if lost:
            conn.execute(update(match_seekers).where(match_seekers.c.player_id.in_(lost))
                         .values(table_id=None))
        rows = conn.execute(select(match_seekers).where(match_seekers.c.table_id.is_(None))
                            .order_by(match_seekers.c.since)).all()
        if not rows:
            return []
        seekers = [_row_seeker(r) for r in rows]
        matches = plan(seekers, now, policy, _bot_levels(conn, {s.game for s in seekers}))
        claimed = []
        for number, match in enumerate(matches):
            tag = f"{PENDING}{now:.3f}/{number}"
            conn.execute(update(match_seekers).where(match_seekers.c.player_id.in_(
                [p.player_id for p in match.people])).values(table_id=tag))
            claimed.append((tag, match))
        return claimed


def settle(engine: Engine, tag: str, table_id: str, seats: Mapping[str, tuple[int, str]],
           now: float) -> None:
    """The claimed seekers get their table and seats."""
    with engine.begin() as conn:
        for player_id, (seat, token) in seats.items():
            conn.execute(update(match_seekers).where(
                match_seekers.c.player_id == player_id, match_seekers.c.table_id == tag)
                .values(table_id=table_id, seat_token=f"{seat}:{token}", seen=now))


def give_back(engine: Engine, tag: str) -> None:
    """A claim whose table could not be made: its seekers wait again."""
    with engine.begin() as conn:
        conn.execute(update(match_seekers).where(match_seekers.c.table_id == tag)
                     .values(table_id=None))


# ---- the service ----

class Matchmaker:
    """One worker's quick match: seeks, status, the matching passes."""

    def __init__(self, lobby: Lobby, store: Store, clock: Clock,
                 policy: Policy | None = None) -> None:
        self.lobby = lobby
        self.store = store
        self.clock = clock
        self.policy = policy or Policy()
        self._lock = asyncio.Lock()  # one pass of this worker at a time
        self._woken: dict[str, asyncio.Event] = {}  # waiting status requests, by player
        self._passes = 0  # passes begun by this worker
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._forever()), loop.create_task(self._watch())]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def _watch(self) -> None:
        """Wake the status requests waiting here whose seat another worker made: one
        read every ``POLL_SECONDS`` for all of them."""
        await watch_forever(
            self.clock, POLL_SECONDS, lambda: list(self._woken),
            lambda ids: self.store.call(seated_among, self.store.engine, ids),
            self._wake, "quick match: the waiting seekers")

    def _wake(self, player_id: str) -> None:
        if (event := self._woken.get(player_id)) is not None:
            event.set()

    async def _forever(self) -> None:
        while True:
            await self.clock.sleep(PASS_SECONDS)
            try:
                await self.match(wait=False)
            except Exception as exc:  # the next pass tries again
                if unreachable(exc):  # (health.py reports the outage itself)
                    log.warning("a quick-match pass waits for the database: %s",
                                type(exc).__name__)
                else:
                    log.exception("a quick-match pass failed")

    # a player's requests

    async def seek(self, player_id: str, name: str, spec: SeekSpec) -> dict[str, Any]:
        if spec.preset not in PRESETS.get(spec.game, {}):
            raise Refused("bad_preset", f"no rules preset {spec.preset!r} for {spec.game} "
                          f"(presets: {', '.join(PRESETS.get(spec.game, {}))})", 400,
                          {"presets": list(PRESETS.get(spec.game, {}))})
        replaces = await self._finished_table(player_id)
        rating = await self.store.call(shown_rating, self.store.engine, player_id, spec.game)
        if not await self.store.call(put_seek, self.store.engine, player_id, name, spec,
                                     rating, replaces, self.clock.time()):
            raise Refused("already_matched", "you are being seated at a table already", 409)
        await self.match(wait=True)
        return await self.status(player_id, MAKING_SECONDS, while_waiting=False)

    async def _finished_table(self, player_id: str) -> str | None:
        """The quick-match table the player was seated at, if its game is over (or they
        no longer hold the seat); refused while they play there."""
        row = await self.store.call(seek_row, self.store.engine, player_id)
        if row is None or row.table_id is None or row.table_id.startswith(PENDING):
            return None
        table = await self.lobby.find(row.table_id)
        seat = None if table is None else table.seat_of_player(player_id)
        if (table is not None and table.playing and seat is not None
                and table.seats[seat].bot is None):  # (a bot plays on for who left)
            raise Refused("already_seated", "you are playing at a quick-match table: finish "
                          "or leave that game first", 409, {"table_id": row.table_id})
        return str(row.table_id)

    async def status(self, player_id: str, wait: float = 0.0,
                     while_waiting: bool = True) -> dict[str, Any]:
        """The player's quick match; with ``wait``, once it changes (matched, or bots
        offered) or after ``wait`` seconds (``while_waiting`` False: only while a table
        is being made for them). Each read marks the seek seen; a waiting request reads
        again only when woken (its seat made) or when bots fall due."""
        deadline = time.monotonic() + wait
        event = self._woken.setdefault(player_id, asyncio.Event())
        event.clear()
        engine = self.store.engine
        try:
            row = await self.store.call(take_status, engine, player_id, self.clock.time())
            while True:
                out = await self._describe(row)
                left = deadline - time.monotonic()
                if out["state"] not in ("waiting", "matching") or left <= 0:
                    return out
                if out["state"] == "waiting" and (out["offer"] is not None
                                                  or not while_waiting):
                    return out
                due = self.policy.offer_seconds - out.get("waited", 0.0)
                if out["state"] == "waiting" and row.bots == "ask" and due > 0:
                    left = min(left, due)  # come back when bots are offered
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), left)
                event.clear()
                row = await self.store.call(take_status, engine, player_id,
                                            self.clock.time())
        finally:
            if self._woken.get(player_id) is event:
                del self._woken[player_id]

    async def _describe(self, row: Any) -> dict[str, Any]:
        if row is None:
            return {"state": "idle"}
        seek = {"game": row.game, "players": row.players, "preset": row.preset,
                "rated": row.rated, "bots": row.bots}
        if row.seat_token is not None:
            seat, token = row.seat_token.split(":", 1)
            return {"state": "matched", "table_id": row.table_id, "seat": int(seat),
                    "token": token, **seek}
        if row.table_id is not None and not row.table_id.startswith(PENDING):
            return {"state": "seated", "table_id": row.table_id, **seek}
        if row.table_id is not None:
            return {"state": "matching", **seek}
        now = self.clock.time()
        seeker = _row_seeker(row)
        waiting = await self.store.call(count_waiting, self.store.engine, row.game,
                                        row.preset, row.rated)
        offer = None
        if seeker.offered(now, self.policy):
            levels = await self.store.call(bot_levels, self.store.engine, row.game)
            offer = {"bot": bot_near(seeker.rating, levels)}
        return {"state": "waiting", **seek, "rating": row.rating,
                "waited": round(now - row.since, 3),
                "window": self.policy.window(now - row.since),
                "waiting": waiting, "offer": offer}

    async def cancel(self, player_id: str) -> None:
        if not await self.store.call(drop_seek, self.store.engine, player_id):
            raise Refused("already_matched", "you are being seated at a table already", 409)

    async def accept_bots(self, player_id: str) -> dict[str, Any]:
        """Bots for the empty seats now; a seeker whose table is being made meanwhile is
        told so (the seat follows)."""
        if not await self.store.call(accept_bots, self.store.engine, player_id):
            row = await self.store.call(seek_row, self.store.engine, player_id)
            if row is None or row.table_id is None or not (
                    row.table_id.startswith(PENDING) or row.seat_token is not None):
                raise Refused("not_waiting", "you are not waiting for a quick match", 409)
            return await self.status(player_id, MAKING_SECONDS, while_waiting=False)
        await self.match(wait=True)
        return await self.status(player_id, MAKING_SECONDS, while_waiting=False)

    # the matching passes

    async def match(self, wait: bool) -> int:
        """A pass that begins after this call (one that began meanwhile, while this
        call waited for the worker's lock, serves it too): the tables it made. ``wait``:
        for another worker's pass to end, rather than leave the queue to it. Only the
        claim is serialised: the claimed tables are made side by side, outside the
        locks."""
        ticket = self._passes
        async with self._lock:
            if self._passes > ticket:  # a pass began after the call and has claimed
                return 0
            self._passes += 1
            began = time.monotonic()
            claims = await self.store.call(claim, self.store.engine, self.policy,
                                           self.clock.time(), wait)
            if (took := time.monotonic() - began) > SLOW_SECONDS:
                log.warning("a quick-match pass took %.1f s to claim %d tables", took,
                            len(claims))
        made = await asyncio.gather(*(self._make_or_give_back(tag, match)
                                      for tag, match in claims))
        return sum(made)

    async def _make_or_give_back(self, tag: str, match: Match) -> bool:
        began = time.monotonic()
        try:
            await self._make(tag, match)
        except Exception:
            log.exception("a quick-match table could not be made")
            await self.store.call(give_back, self.store.engine, tag)
            return False
        if (took := time.monotonic() - began) > SLOW_SECONDS:
            log.warning("a quick-match table took %.1f s to make", took)
        return True

    async def _make(self, tag: str, match: Match) -> None:
        config: dict[str, Any] = {
            "players": len(match.seats), "rules": dict(PRESETS[match.game][match.preset]),
            "games": 1, "turn_seconds": TURN_SECONDS, "visibility": "public",
            # strangers matched talk (each may mute another): nobody hosts the table to
            # turn its chat on
            "chat": True, "hints": not match.rated}
        if match.rated:
            config["rated"] = True
        order = list(match.seats)
        _shuffle(order)  # who deals first is chance's, not the queue's
        table, seats = await seated_table(
            self.lobby, match.game, config,
            [Sitter(s.player_id, s.name) if isinstance(s, Seeker) else s for s in order])
        await self.store.call(settle, self.store.engine, tag, table.public_id, seats,
                              self.clock.time())
        for player_id in seats:
            self._wake(player_id)
