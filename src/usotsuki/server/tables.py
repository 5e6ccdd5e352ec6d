"""A Table per game table: it serialises every command (STYLE: lila Round, cosmicpython).

Each command runs under the table's lock: parse the text, run the core's ``apply``,
append the entry to the store (committed), and only then update the cached state and
publish each subscriber the events it may see (``visible_to``), numbered. The cache is
rebuilt from the log on start, so a killed server carries on where its log stops.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from usotsuki.bots import bot_names, make_bot
from usotsuki.chance import live_rng
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.events import visible_to
from usotsuki.liar import new_seed
from usotsuki.server.games import AnySession, legal_json, new_session, view_json
from usotsuki.server.store import LogEntry, SeatRow, Store, TableRow

STAND_INS = ("normal", "sensible", "cautious", "random")
"""Preferred bots to play for a person whose turn timed out or who left mid-game."""

QUEUE_LIMIT = 2000  # messages waiting for one client; a client this far behind is dropped


class Refused(Exception):
    """A command that cannot be done: a clear message, and nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class Clock(Protocol):
    def sleep(self, seconds: float) -> Awaitable[None]: ...


class RealClock:
    def sleep(self, seconds: float) -> Awaitable[None]:
        return asyncio.sleep(seconds)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def stand_in(game: str) -> str:
    names = bot_names(game)
    return next((n for n in STAND_INS if n in names), names[0])


@dataclass(frozen=True, slots=True)
class Numbered:
    """An event with its number in the table's stream and who may see it."""

    n: int
    audience: frozenset[int] | None
    wire: str  # the "event" message as sent, encoded once for every receiver
    action: str | None = None  # the canonical text, for a server "action" event

    def to_json(self) -> dict[str, Any]:
        event: dict[str, Any] = json.loads(self.wire)["event"]
        return event


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@dataclass
class GameSlot:
    """One game (or Liar match) played at the table."""

    number: int
    session: AnySession
    names: tuple[str, ...]


@dataclass(eq=False)
class Client:
    """One connection: its seat (None: a spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    dropped: bool = False

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True  # the sender task closes the socket
            self.queue = asyncio.Queue()
            self.queue.put_nowait(None)

    def close(self) -> None:
        """Ask the sender task to close the socket once the queue is sent."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.dropped = True


@dataclass
class Settings:
    bot_delay: float = 0.8
    turn_seconds: float | None = None
    deal_seed: int | None = None  # tests and demos only: predictable deals


class Table:
    def __init__(self, row: TableRow, seats: list[SeatRow], store: Store, settings: Settings,
                 clock: Clock) -> None:
        self.row = row
        self.seats = seats
        self.store = store
        self.settings = settings
        self.clock = clock
        self.games: list[GameSlot] = []
        self.events: list[Numbered] = []
        self.seq = 0  # entries in the log
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self._pending: asyncio.Task[None] | None = None

    # facts

    @property
    def public_id(self) -> str:
        return self.row.public_id

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def config(self) -> dict[str, Any]:
        return self.row.config

    @property
    def current(self) -> GameSlot | None:
        return self.games[-1] if self.games else None

    @property
    def playing(self) -> bool:
        slot = self.current
        return slot is not None and not slot.session.is_over

    @property
    def status(self) -> str:
        return "playing" if self.playing else "finished" if self.games else "waiting"

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def is_host(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.row.host_hash,
                                                      token_hash(token or ""))

    def summary(self) -> dict[str, Any]:
        """Public facts of the table: no token, no hidden card, no seed."""
        slot = self.current
        connected = {c.seat for c in self.clients if c.seat is not None}
        return {
            "table_id": self.public_id, "game": self.game,
            "players": self.config["players"], "rules": self.config["rules"],
            "games_per_match": self.config["games"],
            "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot,
                       "taken": s.bot is not None or s.token_hash is not None,
                       "connected": s.seat in connected} for s in self.seats],
            "status": self.status,
            "game_number": None if slot is None else slot.number,
            "games": len(self.games),
        }

    def games_list(self) -> list[dict[str, Any]]:
        return [{"number": g.number, "finished": g.session.is_over, "names": list(g.names),
                 "standings": None if g.session.standings is None
                 else [list(p) for p in g.session.standings or ()]}
                for g in self.games]

    def record(self, number: int) -> dict[str, Any]:
        if not 0 <= number < len(self.games):
            raise Refused("not_found", f"no game {number} at this table", 404)
        session = self.games[number].session
        if not session.is_over:
            # Part 4 records hold every hand and the Liar seed: only once the game ended.
            raise Refused("not_finished", "the record is available once the game has ended",
                          409)
        return session.record()

    # the log fold: one function for live commands and for replay after a restart

    def _fold(self, kind: str, data: dict[str, Any]) -> tuple[list[GameSlot], list[Any]]:
        """The games after one log entry, and its events (core events and the server's
        own, as objects with ``audience`` and ``to_json``). Raises ``ValueError``
        (``IllegalAction``, ``InvalidNotation``, ...) and changes nothing."""
        games = list(self.games)
        if kind == "start":
            names = tuple(data["names"])
            session = new_session(self.game, self.config["players"], self.config["rules"],
                                  self.config["games"], data.get("seed", 0), names)
            games.append(GameSlot(len(games), session, names))
            return games, [_ServerEvent({"type": "game_started", "game": len(games) - 1,
                                         "names": list(names)})]
        slot = games[-1]
        if kind == "chance":
            session, events = slot.session.deal(data)
            games[-1] = GameSlot(slot.number, session, slot.names)
            return games, list(events)
        if kind == "action":
            seat, text = data["seat"], data["action"]
            if slot.session.is_over:
                raise Refused("game_over", "the game is over")
            if slot.session.to_move != seat:
                raise Refused("not_your_turn", f"it is not seat {seat}'s turn")
            session, events, canonical = slot.session.apply_text(text)
            games[-1] = GameSlot(slot.number, session, slot.names)
            # A Liar Game play or give names cards: only the actor sees its text; the
            # others learn what they may from the core's events (Played, Gave ...).
            audience = None if self.game == "bluff" else frozenset((seat,))
            return games, [_ServerEvent({"type": "action", "seat": seat,
                                         "action": canonical}, audience), *events]
        raise ValueError(f"unknown log entry kind {kind!r}")

    def _absorb(self, games: list[GameSlot], events: Iterable[Any]) -> list[Numbered]:
        self.games = games
        self.seq += 1
        fresh = []
        for e in events:
            # Kept as text only: thousands of small dicts per table would slow every
            # garbage collection pass of a busy server.
            n, payload = len(self.events), e.to_json()
            numbered = Numbered(n, e.audience,
                                encode({"type": "event", "n": n, "event": payload}),
                                payload["action"] if payload["type"] == "action" else None)
            self.events.append(numbered)
            fresh.append(numbered)
        return fresh

    def replay(self, entries: Iterable[LogEntry]) -> None:
        """Rebuild the cache from the log (the truth)."""
        for entry in entries:
            games, events = self._fold(entry.kind, entry.data)
            self._absorb(games, events)

    def _commit(self, kind: str, data: dict[str, Any]) -> list[Numbered]:
        games, events = self._fold(kind, data)
        # Durable first: the entry is committed before anyone hears of it.
        self.store.append(self.row.pk, self.seq, kind, data)
        return self._absorb(games, events)

    def _rng(self, purpose: str) -> random.Random:
        if self.settings.deal_seed is None:
            return live_rng()
        return random.Random(f"{self.settings.deal_seed}:{self.row.pk}:{purpose}:{self.seq}")

    def _deal_due(self) -> list[Numbered]:
        """Deal every round or game that is due (chance data logged like an action)."""
        fresh: list[Numbered] = []
        while (slot := self.current) is not None and slot.session.chance_due:
            chance = slot.session.draw_chance(self._rng("deal"))
            fresh += self._commit("chance", chance)
        return fresh

    # publishing

    def _publish(self, fresh: list[Numbered]) -> None:
        for client in list(self.clients):
            for e in fresh:
                if visible_to(e, client.seat):
                    client.send_text(e.wire)
            client.send(self.state_message(client.seat))

    def state_message(self, seat: int | None) -> dict[str, Any]:
        slot = self.current
        view = None if slot is None else view_json(slot.session, seat)
        to_move = None if slot is None else slot.session.to_move
        legal = None
        if slot is not None and seat is not None and to_move == seat:
            legal = legal_json(slot.session)
        return {"type": "state", "n": len(self.events) - 1,
                "game": None if slot is None else slot.number,
                "status": self.status, "to_move": to_move,
                "view": view, "legal": legal}

    def events_since(self, seat: int | None, since: int) -> list[str]:
        """The encoded event messages after number ``since`` that ``seat`` may see."""
        return [e.wire for e in self.events[since + 1:] if visible_to(e, seat)]

    def announce_table(self, skip: Client | None = None) -> None:
        text = encode({"type": "table", "table": self.summary()})
        for client in list(self.clients):
            if client is not skip:
                client.send_text(text)

    # commands (callers hold the lock)

    def join(self, name: str, seat: int | None) -> tuple[int, str]:
        if self.games:
            raise Refused("started", "the game has started: seats are taken", 409)
        free = [s for s in self.seats if s.bot is None and s.token_hash is None]
        if seat is not None:
            free = [s for s in free if s.seat == seat]
            if not free:
                raise Refused("seat_taken", f"seat {seat} is not free", 409)
        if not free:
            raise Refused("table_full", "no free seat at this table", 409)
        token = new_token()
        row = SeatRow(free[0].seat, name, token_hash(token), None)
        self.store.set_seat(self.row.pk, row)
        self.seats[row.seat] = row
        self.announce_table()
        return row.seat, token

    def leave(self, seat: int) -> None:
        """Before the first game the seat is freed; later a bot plays it from now on."""
        old = self.seats[seat]
        if self.games:
            row = SeatRow(seat, old.name, None, stand_in(self.game))
        else:
            row = SeatRow(seat, None, None, None)
        self.store.set_seat(self.row.pk, row)
        self.seats[seat] = row
        for client in list(self.clients):
            if client.seat == seat:
                client.send({"type": "error", "code": "left", "message": "you left the table"})
                client.close()
        self.announce_table()
        self.schedule()

    def start(self, rematch: bool) -> int:
        if self.playing:
            raise Refused("playing", "a game is being played at this table", 409)
        if rematch and not self.games:
            raise Refused("not_started", "no game has been played yet: start it", 409)
        if not rematch and self.games:
            raise Refused("started", "the table has played already: ask for a rematch", 409)
        empty = [s.seat for s in self.seats if s.bot is None and s.token_hash is None]
        if empty:
            raise Refused("seats_empty", f"seats {empty} are still empty", 409)
        names = tuple(s.name or f"{s.bot} bot" for s in self.seats)
        data: dict[str, Any] = {"names": list(names)}
        if self.game == "liar":  # kept in the log, never sent: it foresees the stock
            data["seed"] = (new_seed() if self.settings.deal_seed is None
                            else self._rng("seed").getrandbits(64))
        fresh = self._commit("start", data)
        fresh += self._deal_due()
        self._publish(fresh)
        self.schedule()
        return len(self.games) - 1

    def act(self, seat: int, text: str) -> list[Numbered]:
        if not self.playing:
            raise Refused("no_game", "no game is being played at this table", 409)
        if not isinstance(text, str) or not text.strip():
            raise Refused("bad_action", "the action must be a non-empty string")
        try:
            fresh = self._commit("action", {"seat": seat, "action": text})
        except Refused:
            raise
        except UsotsukiError as exc:  # InvalidNotation, IllegalAction: said to the actor only
            raise Refused("illegal", str(exc)) from None
        fresh += self._deal_due()
        self._publish(fresh)
        self.schedule()
        return fresh

    # bots and turn timers

    def resume(self) -> None:
        """After loading: deal what is due and wake the bots."""
        fresh = self._deal_due() if self.games else []
        if fresh:
            self._publish(fresh)
        self.schedule()

    def schedule(self) -> None:
        """Start the timer of the seat to move: a bot's delay, or a person's turn limit."""
        if self._pending is not None and self._pending is not asyncio.current_task():
            self._pending.cancel()
        self._pending = None
        slot = self.current
        if slot is None or slot.session.is_over or slot.session.to_move is None:
            return
        seat = slot.session.to_move
        bot = self.seats[seat].bot
        if bot is not None:
            delay, name = self.settings.bot_delay, bot
        elif self.settings.turn_seconds is not None:
            delay, name = self.settings.turn_seconds, stand_in(self.game)
        else:
            return
        self._pending = asyncio.get_running_loop().create_task(
            self._bot_turn(self.seq, seat, name, delay))

    async def _bot_turn(self, seq: int, seat: int, name: str, delay: float) -> None:
        if delay > 0:
            await self.clock.sleep(delay)
        async with self.lock:
            if self.seq != seq:  # somebody acted meanwhile
                return
            try:
                self.act(seat, self._bot_choice(seat, name))
            except Refused:  # cannot happen with the seq check; never kill the loop
                return

    def _bot_choice(self, seat: int, name: str) -> str:
        slot = self.current
        assert slot is not None
        session = slot.session
        rng = self._rng(f"bot{seat}")
        try:
            action = make_bot(self.game, name).act(session.view(seat), session.legal(), rng)
            session.apply(action)  # a bot's mistake must not stall the table
        except ValueError:
            action = session.random_action(rng)
        return session.format_action(action)

    def stop(self) -> None:
        if self._pending is not None:
            self._pending.cancel()


@dataclass(frozen=True, slots=True)
class _ServerEvent:
    """An event of the server's own (a game started, an action was made): public."""

    payload: dict[str, Any]
    audience: frozenset[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return self.payload


class Lobby:
    """Every table, by public id and by invite code."""

    def __init__(self, store: Store, settings: Settings, clock: Clock) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.by_id: dict[str, Table] = {}
        self.by_invite: dict[str, Table] = {}

    def load(self) -> None:
        for row in self.store.load_tables():
            table = Table(row, self.store.load_seats(row.pk), self.store, self.settings,
                          self.clock)
            table.replay(self.store.load_log(row.pk))
            self._add(table)
            table.resume()

    def _add(self, table: Table) -> None:
        self.by_id[table.public_id] = table
        self.by_invite[table.row.invite] = table

    def create(self, game: str, config: dict[str, Any], bots: list[str | None]
               ) -> tuple[Table, str]:
        host_token = new_token()
        public_id, invite = secrets.token_urlsafe(9), secrets.token_urlsafe(12)
        pk = self.store.create_table(public_id, invite, token_hash(host_token), game, config,
                                     bots)
        row = TableRow(pk, public_id, invite, token_hash(host_token), game, config)
        table = Table(row, self.store.load_seats(pk), self.store, self.settings, self.clock)
        self._add(table)
        return table, host_token

    def get(self, table_id: str) -> Table:
        table = self.by_id.get(table_id)
        if table is None:
            raise Refused("not_found", f"no table {table_id!r}", 404)
        return table

    def invited(self, invite: str) -> Table:
        table = self.by_invite.get(invite)
        if table is None:
            raise Refused("not_found", "no table has this invite code", 404)
        return table

    def stop(self) -> None:
        for table in self.by_id.values():
            table.stop()

