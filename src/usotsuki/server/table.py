"""A Table per game table: it serialises every command (STYLE: lila Round, cosmicpython).

Each command runs under the table's lock: parse the text, run the core's ``apply``, write
the entry (and every deal it makes due, in the same transaction) to the table's
:class:`~usotsuki.server.log.TableLog` and await it (committed), and only then update the
cached state and tell the :class:`~usotsuki.server.audience.Audience` (each socket the
events its seat may see, numbered); :class:`~usotsuki.server.turns.Turns` then wakes
whoever plays next. The cache is rebuilt from the log when the table is first used, so a
killed server carries on where its log stops.

The same ``Table`` runs on a single worker (a plain log in its store) and in a cluster (a
log fenced by the worker's lease: :mod:`usotsuki.server.cluster` adds the relay of
commands to the owner and the followers' copies around it).

Commands run in a task of their own, shielded from the caller: a client that goes away
while its action is being written cannot leave the cache behind the log.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from usotsuki.chance import live_rng
from usotsuki.core.errors import UsotsukiError
from usotsuki.games import AnySession, GameEntry
from usotsuki.games import game as game_entry
from usotsuki.server import fair_deals
from usotsuki.server.audience import Audience
from usotsuki.server.auth import new_token, same_token, token_hash
from usotsuki.server.bot_runner import BotRunner
from usotsuki.server.config import Clock, Refused, Settings
from usotsuki.server.fair_deals import FairGame
from usotsuki.server.games import hint_json, legal_json, view_json
from usotsuki.server.health import unavailable, unreachable
from usotsuki.server.log import Entry, StoreLog, TableLog
from usotsuki.server.names import seat_names, with_suffix
from usotsuki.server.store import LogEntry, SeatRow, Store, TableRow
from usotsuki.server.turns import Turns, stand_in
from usotsuki.server.wire import Client, EventStream, Numbered, encode
from usotsuki.session import chance_source

T = TypeVar("T")

FAILURES = {"unavailable": "unavailable", "not_owner": "fenced"}
"""Why a write failed, as counted (metrics): the database away, the lease lost."""

@dataclass
class GameSlot:
    """One game (or Liar match) played at the table."""

    number: int
    session: AnySession
    names: tuple[str, ...]
    fair: FairGame | None = None  # None: a game logged before deals were committed

    @property
    def collecting(self) -> bool:
        """Contributions to the game's deal are being collected: nothing is dealt yet."""
        return self.fair is not None and not self.fair.closed


@dataclass(frozen=True, slots=True)
class _ServerEvent:
    """An event of the server's own (a game started, an action was made): public."""

    payload: dict[str, Any]
    audience: frozenset[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return self.payload


@dataclass(frozen=True, slots=True)
class _Folded:
    """One log entry folded in memory, not yet absorbed: its kind, its data as logged
    (an action's text canonical), the games after it and its events."""

    kind: str
    data: dict[str, Any]
    games: list[GameSlot]
    events: list[Any]


class Table:
    def __init__(self, row: TableRow, seats: list[SeatRow], store: Store, settings: Settings,
                 clock: Clock, runner: BotRunner | None = None,
                 log: TableLog | None = None) -> None:
        self.row = row
        self.seats = seats
        self.store = store  # read from; every write goes through ``log``
        self.log: TableLog = StoreLog(store, row.pk) if log is None else log
        self.settings = settings
        self.clock = clock
        self.runner = runner
        self.games: list[GameSlot] = []
        self.events = EventStream(settings.events_in_memory, max(1, settings.events_in_memory // 2))
        self.seq = 0  # entries in the log
        self.active = row.active  # clock time of the last command
        self.used = clock.time()  # ... or of the last time this worker was asked for it
        self.retired = False  # unloaded by the lobby: a later use loads a new copy
        self.lock = asyncio.Lock()
        self.audience = Audience(self)
        self.clients: set[Client] = self.audience.clients  # (the audience's sockets)
        self.turns = Turns(self)
        self.revealed = -2  # self.seq just after the last challenge or doubt
        # Asked when the last person leaves a game in play (the lobby's quota of games of
        # bots only); a table it refuses is parked: its bots wait for room.
        self.may_play_bots: Callable[[Table], bool] | None = None
        self.parked = False
        self.ended: Callable[[Table], None] | None = None  # a game here ended (the lobby)
        self._unparking: asyncio.Task[None] | None = None
        # Each seat's state message (without its clock) at one version of the table.
        self._states: dict[tuple[int | None, bool], dict[str, Any]] = {}
        self._states_at = (-1, -1)  # (seq, events) of the cached states
        # Where an action's time goes (metrics.PHASES), when the lobby observes it.
        self.timing: Callable[[str, float], None] | None = None
        self._spent: dict[str, float] | None = None  # the action being made's phases
        self._published = 0.0  # when its publishing began
        # Each seat's last action: (its client's key, its action event's number, its
        # last event's number, its canonical text); from the log, so any owner knows.
        self._made: dict[int, tuple[str | int | None, int, int, str]] = {}
        self._last_actor: int | None = None  # whose action the log's last entries are
        # A write whose outcome is unknown failed (the database went away during it):
        # the log may hold more than the cache. Read back before the next command.
        self.unsure = False

    # facts

    @property
    def public_id(self) -> str:
        return self.row.public_id

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def entry(self) -> GameEntry:
        """The game's registry entry (:mod:`usotsuki.games`)."""
        return game_entry(self.row.game)

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

    @property
    def due(self) -> bool:
        """Whether the table carries on by itself here, with nobody at it: a bot's turn
        or a person's turn clock is timed, or a game of bots only waits for room."""
        return self.writer and (self.turns.running or (self.parked and self.playing))

    @property
    def writer(self) -> bool:
        """Whether this worker writes the table's log (and so runs its bots and timers):
        always on a single worker; in a cluster, its owner only."""
        return True

    @property
    def turn_seconds(self) -> float | None:
        """A person's time per turn at this table (chosen at creation), else the server's."""
        value = self.config.get("turn_seconds", self.settings.turn_seconds)
        return None if value is None else float(value)

    @property
    def rated(self) -> bool:
        """A rated table (docs/ratings.md): accounts only, hints off, a turn clock."""
        return bool(self.config.get("rated", False))

    @property
    def visibility(self) -> str:
        """public (listed in the lobby, anyone may join) or invite (by link only)."""
        return str(self.config.get("visibility", "invite"))

    @property
    def chat_on(self) -> bool:
        """Whether the table's chat is on (tables made before chat existed: on)."""
        return bool(self.config.get("chat", True))

    @property
    def hints_allowed(self) -> bool:
        """Whether seats may ask for hints: the host's choice, never at rated tables."""
        return bool(self.config.get("hints", True)) and not self.rated

    @property
    def bots_only(self) -> bool:
        return all(s.bot is not None for s in self.seats)

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        for s in self.seats:
            if same_token(s.token_hash, token):
                return s.seat
        return None

    def holds(self, seat: int | None, holder: str | None) -> bool:
        """Whether the token whose hash is ``holder`` still holds ``seat``. A socket or a
        relayed command speaks for a seat only while this is true: leaving, a bot taking
        the seat over and a new join each change the seat's holder (its token hash)."""
        return (seat is not None and holder is not None and 0 <= seat < len(self.seats)
                and self.seats[seat].token_hash == holder)

    def is_host(self, token: str | None) -> bool:
        return same_token(self.row.host_hash, token)

    def summary(self) -> dict[str, Any]:
        """Public facts of the table: no token, no hidden card, no seed."""
        slot = self.current
        connected = {c.seat for c in self.clients if c.seat is not None}
        names = self.shown_names()
        return {
            "table_id": self.public_id, "game": self.game,
            "players": self.config["players"], "rules": self.config["rules"],
            "games_per_match": self.config["games"],
            "turn_seconds": self.turn_seconds,
            "rated": self.rated,
            "hints": self.hints_allowed,
            "seats": [{"seat": s.seat,
                       "name": names[s.seat],
                       "bot": s.bot,
                       "taken": s.bot is not None or s.token_hash is not None,
                       "connected": s.seat in connected} for s in self.seats],
            "status": self.status,
            "game_number": None if slot is None else slot.number,
            "games": len(self.games),
            "spectators": sum(1 for c in self.clients if c.seat is None),
        }

    def shown_names(self) -> list[str | None]:
        """Each seat's name as everyone reads it (unique at the table; None: empty)."""
        return seat_names([(s.name, s.bot) for s in self.seats])

    def seat_of_player(self, player_id: str | None) -> int | None:
        """The seat the player sits at (or sat at, until a stand-in took it), if any."""
        return next((s.seat for s in self.seats
                     if player_id is not None and s.player_id == player_id), None)

    def games_list(self, you: int | None = None) -> list[dict[str, Any]]:
        """The games, each with ``you``: the asker's seat (every game has the same seats)."""
        return [{"number": g.number, "finished": g.session.is_over, "names": list(g.names),
                 "you": you,
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
        return session.record()  # (with its fairness object: the secret revealed)

    # the log fold: one function for live commands and for replay after a restart

    def _fold(self, kind: str, data: dict[str, Any]) -> _Folded:
        """The games after one log entry, and its events (core events and the server's
        own, as objects with ``audience`` and ``to_json``). Raises ``ValueError``
        (``IllegalAction``, ``InvalidNotation``, ...) and changes nothing."""
        games = list(self.games)
        if kind == "start":
            names = tuple(data["names"])
            session = self.entry.new_session(self.config["players"], self.config["rules"],
                                             self.config["games"], data.get("seed", 0), names)
            number = len(games)
            fair = (None if "fairness" not in data
                    else fair_deals.from_start(self.public_id, number, data["fairness"]))
            games.append(GameSlot(number, session, names, fair))
            started: list[Any] = [_ServerEvent(
                {"type": "game_started", "game": number, "names": list(names)})]
            if fair is not None:  # (the secret stays in the log)
                started.append(_ServerEvent({"type": "commitment", "game": number,
                                             "commitment": fair.commitment,
                                             "people": list(fair.people)}))
            return _Folded(kind, data, games, started)
        slot = games[-1]
        if kind == "chance":
            if slot.collecting:
                raise ValueError("a deal before the contributions to it were closed")
            session, events = slot.session.deal(data)
            games[-1] = GameSlot(slot.number, session, slot.names, slot.fair)
            return _Folded(kind, data, games, list(events))
        if kind in ("contribution", "close"):
            return self._fold_fairness(kind, data, games)
        if kind == "action":
            seat, text = data["seat"], data["action"]
            if slot.session.is_over:
                raise Refused("game_over", "the game is over")
            if slot.session.to_move != seat:
                raise Refused("not_your_turn", f"it is not seat {seat}'s turn")
            session, events, canonical = slot.session.apply_text(text)
            games[-1] = GameSlot(slot.number, session, slot.names, slot.fair)
            # A Liar Game play or give names cards: only the actor sees its text; the
            # others learn what they may from the core's events (Played, Gave ...).
            audience = None if self.entry.public_actions else frozenset((seat,))
            notice = []
            if "timeout" in data:  # the person's clock ran out: a bot plays this turn
                notice = [_ServerEvent({"type": "timeout", "seat": seat, **data["timeout"]})]
            if "stand_in" in data:  # a bot failed: say who played its turn, and why
                notice.append(_ServerEvent({"type": "stand_in", "seat": seat,
                                            **data["stand_in"]}))
            ended = []
            if session.is_over and slot.fair is not None:  # the game's secret, to all
                ended = [_ServerEvent({"type": "revealed", "game": slot.number,
                                       "commitment": slot.fair.commitment,
                                       "secret": slot.fair.secret})]
            # Logged in the canonical notation (RULES.md Part 3), whatever the client typed.
            return _Folded(kind, {**data, "action": canonical}, games,
                           [*notice, _ServerEvent({"type": "action", "seat": seat,
                                                   "action": canonical}, audience), *events,
                            *ended])
        raise ValueError(f"unknown log entry kind {kind!r}")

    def _fold_fairness(self, kind: str, data: dict[str, Any],
                       games: list[GameSlot]) -> _Folded:
        """A person's contribution to the game's deal, or the close of them (who gave
        none): both public."""
        slot = games[-1]
        fair = slot.fair
        if fair is None or fair.closed:
            raise Refused("not_collecting", "no contribution to a deal is being collected")
        session = slot.session
        if kind == "contribution":
            seat, value = data["seat"], data["value"]
            if seat not in fair.people or fair.value_of(seat) is not None:
                raise Refused("contributed", f"seat {seat} cannot contribute (again)")
            fair = fair_deals.contribute(fair, seat, value)
            event = _ServerEvent({"type": "contributed", "game": slot.number, "seat": seat})
        else:  # from now on the session is dealt from the secret and the contributions
            fair, fairness = fair_deals.close(fair, data)
            session = fair_deals.sealed(session, fairness)
            event = _ServerEvent({"type": "contributions_closed", "game": slot.number,
                                  "missing": list(fair.missing)})
        games[-1] = GameSlot(slot.number, session, slot.names, fair)
        return _Folded(kind, data, games, [event])

    def _absorb(self, folded: _Folded) -> list[Numbered]:
        self.games = folded.games
        self.seq += 1
        fresh = []
        for e in folded.events:
            # Kept as text only: thousands of small dicts per table would slow every
            # garbage collection pass of a busy server.
            n, payload = len(self.events), e.to_json()
            numbered = Numbered(n, e.audience,
                                encode({"type": "event", "n": n, "event": payload}),
                                payload["action"] if payload["type"] == "action" else None)
            if payload["type"] in ("challenged", "doubted"):
                self.revealed = self.seq
            self.events.append(numbered)
            fresh.append(numbered)
        kind, data = folded.kind, folded.data
        if kind == "action":  # the seat's last action, and the key its client gave it
            made = next(e for e in fresh if e.action is not None)
            self._made[data["seat"]] = (data.get("key"), made.n, fresh[-1].n,
                                        made.action or "")
            self._last_actor = data["seat"]
        elif kind == "chance" and self._last_actor in self._made and fresh:
            # The deal an action made due: its events end that action's (as its ack said)
            key, first, _, action = self._made[self._last_actor]
            self._made[self._last_actor] = (key, first, fresh[-1].n, action)
        else:
            self._last_actor = None
        return fresh

    def made_already(self, seat: int, key: str | int | None) -> list[Numbered] | None:
        """The seat's last action's events (its first and last), if it was made with
        ``key``: that client sends it again (it missed the answer), nothing is made twice."""
        made = self._made.get(seat)
        if key is None or made is None or made[0] != key:
            return None
        return [Numbered(made[1], None, "", made[3]), Numbered(made[2], None, "")]

    def replay(self, entries: Iterable[LogEntry]) -> None:
        """Rebuild the cache from the log (the truth)."""
        for entry in entries:
            self._absorb(self._fold(entry.kind, entry.data))

    # the write path: one rule for every command

    async def _commit(self, kind: str, data: dict[str, Any]) -> list[Numbered]:
        """Commit an entry and every deal it makes due (a challenge ends a round: the
        next is dealt) in one write to the log: one transaction, and nobody hears of any
        of them before all are durable. The deals are drawn on the entry's outcome in
        memory: the contributions' close, once nobody is awaited or their time is up,
        then each deal (:meth:`_draw`)."""
        if self.seq >= self.settings.max_entries:
            raise Refused("table_cap", f"this table has reached its cap of "
                          f"{self.settings.max_entries} logged actions and deals", 409,
                          {"max": self.settings.max_entries})
        started = time.perf_counter()
        folded = [self._fold(kind, data)]
        kept = self.games, self.seq
        try:  # (the cache moves only once the log has them all)
            self.games, self.seq = folded[0].games, self.seq + 1
            while (slot := self.current) is not None and self.seq < self.settings.max_entries:
                if slot.collecting:
                    if not self._may_close(slot):
                        break
                    folded.append(self._fold("close", self._close_data(slot)))
                elif slot.session.chance_due:
                    folded.append(self._fold("chance", self._draw(slot)))
                else:
                    break
                self.games, self.seq = folded[-1].games, self.seq + 1
        finally:
            self.games, self.seq = kept
        entries: list[Entry] = [(f.kind, f.data) for f in folded]
        done_folding = time.perf_counter()
        now = self.clock.time()
        # Durable first. The lock is held meanwhile; other tables carry on.
        await self._unsure_on_failure(self.log.append(self.seq, entries, now))
        self._count(started, done_folding)
        self.active = now
        fresh: list[Numbered] = []
        for f in folded:
            fresh += self._absorb(f)
        return fresh

    async def _deal_due(self) -> list[Numbered]:
        """Deal what is due (a log whose last deal was never written, or contributions
        whose time is up): as it follows an entry."""
        slot = self.current
        if slot is None:
            return []
        if slot.collecting:
            if not self._may_close(slot):
                return []
            return await self._commit("close", self._close_data(slot))
        if not slot.session.chance_due:
            return []
        return await self._commit("chance", self._draw(slot))

    # fair deals (fair_deals.py, docs/fairness.md)

    def _bots(self) -> list[bool]:
        return [s.bot is not None for s in self.seats]

    def _may_close(self, slot: GameSlot) -> bool:
        """The game's contributions may be closed: every person still seated gave one,
        or their time is up."""
        fair = slot.fair
        assert fair is not None
        return not fair.waiting(self._bots()) or self.clock.time() >= fair.until

    def _close_data(self, slot: GameSlot) -> dict[str, Any]:
        assert slot.fair is not None
        return fair_deals.close_data(slot.fair, self._bots())

    def _draw(self, slot: GameSlot) -> dict[str, Any]:
        """The next deal's data: derived from the game's secret and contributions (a game
        logged before deals were committed: drawn as then)."""
        return slot.session.draw_chance(chance_source(slot.session, self.rng("deal")))

    def fairness_state(self) -> dict[str, Any] | None:
        """The present game's fairness as told to everyone (``state`` messages)."""
        slot = self.current
        if slot is None or slot.fair is None:
            return None
        return {"game": slot.number, **fair_deals.public(
            slot.fair, self._bots(), self.clock.time(), slot.session.is_over)}

    async def contribute(self, seat: int, value: Any, holder: str) -> list[Numbered]:
        """A person's contribution to the present game's deal, checked, committed and
        told (with the close and the deal if it was the last awaited). The same value
        sent again (its answer was lost) is taken as given, not refused."""
        async def run() -> list[Numbered]:
            if not self.holds(seat, holder):
                raise Refused("left", "this token no longer holds the seat", 403)
            if not fair_deals.valid_contribution(value):
                raise Refused("bad_contribution", "a contribution is 64 lowercase "
                              "hexadecimal digits (32 random bytes)")
            slot = self.current
            if slot is not None and slot.fair is not None \
                    and slot.fair.value_of(seat) == value:
                return []  # (given already: its client missed the answer)
            fresh = await self._commit("contribution", {"seat": seat, "value": value})
            self.turns.schedule()
            self.tell(fresh)
            return fresh

        return await self.serialised(run)

    def _count(self, started: float, folded: float) -> None:
        """Count an entry's fold (``started`` to ``folded``) and commit (to now) in the
        phases of the action being made, if it is timed."""
        if self._spent is not None:
            self._spent["fold"] += folded - started
            self._spent["commit"] += time.perf_counter() - folded

    def seed(self, purpose: str) -> int | str:
        if self.settings.deal_seed is None:
            return secrets.randbits(64)
        return f"{self.settings.deal_seed}:{self.row.pk}:{purpose}:{self.seq}"

    def rng(self, purpose: str) -> random.Random:
        if self.settings.deal_seed is None:
            return live_rng()
        return random.Random(self.seed(purpose))

    async def _unsure_on_failure(self, write: Awaitable[None]) -> None:
        try:
            await write
        except Exception as exc:
            code = exc.code if isinstance(exc, Refused) else "error"
            if code == "unavailable":  # (it may have been written all the same)
                self.unsure = True
            if self.store.failed is not None:
                self.store.failed(FAILURES.get(code, "error"))
            raise

    async def settle(self) -> None:
        """Under the lock, before a command: if a write's outcome is unknown, read the
        log (and seats) back first, and tell what it holds beyond the cache (an action
        sent again with its key is then acknowledged, never made twice). Raises
        ``Refused("unavailable")`` while the database cannot be read."""
        if not self.unsure:
            return
        try:
            await self._read_back()
        except Exception as exc:
            if not unreachable(exc):
                raise
            self.store.health.failed(exc)
            raise unavailable() from exc
        self.unsure = False

    async def _read_back(self) -> None:
        entries = await self.store.call(self.store.load_log, self.row.pk)
        seats = await self.store.call(self.store.load_seats, self.row.pk)
        fresh: list[Numbered] = []
        for entry in entries[self.seq:]:
            fresh += self._absorb(self._fold(entry.kind, entry.data))
        if seats != self.seats:
            self.seats = seats
            self.audience.evict_former_holders()
            self.audience.announce()
        self.turns.schedule()
        if fresh:
            self.tell(fresh)

    async def _set_seat(self, row: SeatRow) -> None:
        now = self.clock.time()
        await self._unsure_on_failure(self.log.set_seat(row, now))
        self.seats[row.seat] = row
        self.active = now
        self.audience.evict_former_holders()

    # telling

    def tell(self, fresh: list[Numbered]) -> None:
        """Tell everyone of committed events (after ``Turns.schedule``: the states carry
        the turn's clock)."""
        self.audience.publish(fresh)

    def state_message(self, seat: int | None, hints: bool = False) -> dict[str, Any]:
        """The seat's state message; ``hints``: with the honest hint when the seat is to
        move (only sockets that show it ask: ``Client.hints``). Built once per seat and
        version of the table (its view, legal moves and hint cost milliseconds in a long
        game); only the turn's clock is read afresh. A rated table shows no hint."""
        hints = hints and not self.rated
        if self._states_at != (self.seq, len(self.events)):
            self._states, self._states_at = {}, (self.seq, len(self.events))
        state = self._states.get((seat, hints))
        if state is None:
            state = self._states[(seat, hints)] = self._state(seat, hints)
        clock = None
        deadline, to_move = self.turns.deadline, state["to_move"]
        if deadline is not None and deadline[0] == to_move and self.playing:
            left = max(0.0, deadline[1] - self.clock.time())
            clock = {"seat": to_move, "left": round(left, 1), "seconds": deadline[2]}
        return {**state, "clock": clock, "fairness": self.fairness_state()}

    def _state(self, seat: int | None, hints: bool) -> dict[str, Any]:
        slot = self.current
        view = None if slot is None else view_json(slot.session, seat)
        to_move = None if slot is None else slot.session.to_move
        legal = hint = None
        if slot is not None and seat is not None and to_move == seat:
            legal = legal_json(slot.session)
            if hints:
                started = time.perf_counter()
                hint = hint_json(slot.session, seat)
                if self._spent is not None:
                    self._spent["hint"] += time.perf_counter() - started
        return {"type": "state", "n": len(self.events) - 1,
                "game": None if slot is None else slot.number,
                "status": self.status, "to_move": to_move,
                "view": view, "legal": legal, "clock": None, "hint": hint}

    async def prepare_socket(self, since: int = -1) -> None:
        """Called under the lock before a socket is added, that has seen the events up to
        ``since`` (a cluster's follower copy reads the log first)."""

    def socket_added(self) -> None:
        """A socket was added (a cluster's follower may ask for the table's lease)."""

    def events_since(self, seat: int | None, since: int) -> list[str]:
        """The encoded event messages after number ``since`` that ``seat`` may see."""
        return self.events.since(seat, since)

    # commands: each takes the lock itself, in a task the caller cannot cancel

    async def serialised(self, command: Callable[[], Awaitable[T]]) -> T:
        async def locked() -> T:
            async with self.lock:
                if self.retired:  # (a copy unloaded while this command waited)
                    raise unavailable("the table was being unloaded: try again")
                await self.settle()
                return await command()

        return await asyncio.shield(asyncio.ensure_future(locked()))

    async def join(self, name: str, seat: int | None,
                   player_id: str | None = None) -> tuple[int, str]:
        """Sit ``name`` (the player ``player_id``, if known) at a free seat."""
        return await self.serialised(lambda: self._join(name, seat, player_id))

    async def _join(self, name: str, seat: int | None,
                    player_id: str | None) -> tuple[int, str]:
        if self.games:
            raise Refused("started", "the game has started: seats are taken", 409)
        free = [s for s in self.seats if s.bot is None and s.token_hash is None]
        if seat is not None:
            free = [s for s in free if s.seat == seat]
            if not free:
                raise Refused("seat_taken", f"seat {seat} is not free", 409, {"seat": seat})
        if not free:
            raise Refused("table_full", "no free seat at this table", 409)
        if self.rated and player_id is not None and any(s.player_id == player_id
                                                         for s in self.seats):
            raise Refused("already_seated", "you hold a seat at this rated table already",
                          409)
        token = new_token()
        # Unique at the table: a second "Mika" sits as "Mika 2" (a bot yields its name).
        name = with_suffix(name, (s.name for s in self.seats if s.name))
        row = SeatRow(free[0].seat, name, token_hash(token), None, player_id)
        await self._set_seat(row)
        self.audience.announce()
        return row.seat, token

    async def leave(self, seat: int, holder: str) -> None:
        """The seat's holder (its token's hash) leaves: before the first game the seat is
        freed; later a bot plays it from now on. Every socket of the seat is closed."""
        await self.serialised(lambda: self._leave(seat, holder))

    async def _leave(self, seat: int, holder: str) -> None:
        old = self.seats[seat]
        if not self.holds(seat, holder):  # two leaves at once (the first one won), or a
            # token that held the seat before somebody else took it
            raise Refused("forbidden", "this token holds no seat at this table", 403)
        if self.games:
            row = SeatRow(seat, old.name, None, stand_in(self.game), old.player_id)
        else:
            row = SeatRow(seat, None, None, None)
        await self._set_seat(row)  # (closes the seat's sockets: it has a new holder)
        fresh = await self._deal_due()  # (the last person awaited may have left)
        if (self.bots_only and self.playing and self.may_play_bots is not None
                and not self.may_play_bots(self)):
            self.parked = True  # no room for another game of bots only: it waits
        self.audience.announce()
        self.turns.schedule()
        if fresh:
            self.tell(fresh)

    def unpark(self) -> None:
        """A parked game of bots only carries on (there is room now)."""
        async def carry_on() -> None:
            self.parked = False
            self.turns.schedule()

        self._unparking = asyncio.ensure_future(self.serialised(carry_on))

    async def start(self, rematch: bool, check: Callable[[Table], None] | None = None) -> int:
        """Start the first game or a rematch; ``check`` (a quota) runs under the lock."""
        return await self.serialised(lambda: self._start(rematch, check))

    async def _start(self, rematch: bool, check: Callable[[Table], None] | None) -> int:
        if self.playing:
            raise Refused("playing", "a game is being played at this table", 409)
        if rematch and not self.games:
            raise Refused("not_started", "no game has been played yet: start it", 409)
        if not rematch and self.games:
            raise Refused("started", "the table has played already: ask for a rematch", 409)
        empty = [s.seat for s in self.seats if s.bot is None and s.token_hash is None]
        if empty:
            raise Refused("seats_empty", f"seats {empty} are still empty", 409,
                          {"seats": empty})
        if check is not None:
            check(self)
        names = tuple(name or "" for name in self.shown_names())  # (no seat is empty)
        data: dict[str, Any] = {"names": list(names)}
        # The game's secret, kept in the log, never sent before the game's end: only its
        # commitment is. The deals (and the Liar seed) follow from it and the people's
        # contributions, closed after ``contribute_seconds`` at most.
        secret = fair_deals.game_secret(self.settings.deal_seed, self.row.pk, self.seq)
        people = [s.seat for s in self.seats if s.bot is None]
        data["fairness"] = fair_deals.start_data(
            self.public_id, len(self.games), secret,
            self.clock.time() + self.settings.contribute_seconds, people)
        fresh = await self._commit("start", data)
        self.turns.started()
        self.turns.schedule()  # first: the state published holds the turn's clock
        self.tell(fresh)
        return len(self.games) - 1

    async def act(self, seat: int, text: str, holder: str,
                  done: Callable[[list[Numbered]], None] | None = None,
                  arrived: float | None = None,
                  key: str | int | None = None) -> list[Numbered]:
        """A person's action: refused with ``left`` unless ``holder`` (the hash of the
        token it came with) still holds the seat; checked by the core, committed, then
        published; ``done`` is called with its events right after they are published (the
        actor's ``ack`` then joins the same batch frame as the events and state);
        ``arrived``: when its message arrived (``time.perf_counter``), to time its phases.
        ``key``: the client's name for this action (logged with it): sent again, the
        action made already is acknowledged again, never made twice nor refused."""
        async def run() -> list[Numbered]:
            if not self.holds(seat, holder):
                raise Refused("left", "this token no longer holds the seat", 403)
            fresh = await self.play(seat, text, arrived=arrived, key=key)
            if done is not None:
                done(fresh)
            return fresh

        return await self.serialised(run)

    async def play(self, seat: int, text: str, notice: dict[str, Any] | None = None,
                   timeout: dict[str, Any] | None = None, arrived: float | None = None,
                   key: str | int | None = None) -> list[Numbered]:
        """Make the seat's move (a person's, or a bot's: ``notice``, ``timeout``), under
        the lock: committed, then told. Raises ``Refused`` and changes nothing."""
        if (again := self.made_already(seat, key)) is not None:
            return again  # (its client missed the answer: nothing is made twice)
        if arrived is None or self.timing is None:
            return await self._play(seat, text, notice, timeout, key)
        locked = time.perf_counter()
        spent = self._spent = {"fold": 0.0, "commit": 0.0, "hint": 0.0}
        try:
            fresh = await self._play(seat, text, notice, timeout, key)
        finally:
            self._spent = None
        done = time.perf_counter()
        spent["publish"] = done - self._published
        spent["wait"] = locked - arrived
        spent["action"] = done - arrived
        for phase, seconds in spent.items():
            self.timing(phase, seconds)
        return fresh

    async def _play(self, seat: int, text: str, notice: dict[str, Any] | None,
                    timeout: dict[str, Any] | None,
                    key: str | int | None = None) -> list[Numbered]:
        if not self.playing:
            raise Refused("no_game", "no game is being played at this table", 409)
        if not isinstance(text, str) or not text.strip():
            raise Refused("bad_action", "the action must be a non-empty string")
        data: dict[str, Any] = {"seat": seat, "action": text}
        if key is not None:
            data["key"] = key
        if notice is not None:
            data["stand_in"] = notice
        if timeout is not None:
            data["timeout"] = timeout
        try:
            fresh = await self._commit("action", data)
        except Refused:
            raise
        except UsotsukiError as exc:  # InvalidNotation, IllegalAction: said to the actor only
            raise Refused("illegal", str(exc)) from None
        self.turns.schedule()  # first: the state published holds the turn's clock
        self._published = time.perf_counter()
        self.tell(fresh)
        if not self.playing and self.ended is not None:
            self.ended(self)
        return fresh

    async def hurry(self, seat: int | None) -> bool:
        """Bots play at once for the rest of this game if no person is left to read it."""
        return await self.turns.hurry(seat)

    async def resume(self) -> None:
        """After loading, or once the contributions' time is up (``Turns``): deal what
        is due and wake the bots."""
        async def due() -> None:
            fresh = await self._deal_due()
            self.turns.schedule()
            if fresh:
                self.tell(fresh)

        await self.serialised(due)

    def stop(self) -> None:
        self.turns.stop()
        self.audience.stop()
