"""``run_bot``: an outside bot's whole life on a server: seek games in the arena, play each
seat it is given with a policy (several at once if asked), answer challenges, and seek
again, until it has played the games asked for."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from usotsuki.client.bot import BotClient, GameSeat
from usotsuki.client.errors import ClientError, PolicyError, ServerError
from usotsuki.client.play import Policy, play
from usotsuki.client.seat import Message

log = logging.getLogger(__name__)

SEEK_CHECK_SECONDS = 60.0
"""How long a seek may wait for a game before the bot asks whether it still stands (the
server drops a seek of a bot that stopped polling)."""


DEFAULT_PRESET = "standard"
"""The rules preset of a seek or challenge that names none (the server's default)."""


@dataclass(frozen=True)
class Seeking:
    """What the bot seeks: ``game``, ``players`` (None: any), the match ``preset``
    (``GET /api/match/presets``; None: the server's default) and whether ``rated``."""

    game: str = "bluff"
    players: int | None = 2
    preset: str | None = None
    rated: bool = False


@dataclass
class Played:
    """A game the bot played: its seat and the last state (``view.standings`` holds the
    places: a list of lists of seats, first place first)."""

    seat: GameSeat
    final: Message

    @property
    def place(self) -> int | None:
        """The bot's place from 1 (shared places share a number), None if unknown."""
        standings = (self.final.get("view") or {}).get("standings")
        for place, seats in enumerate(standings or (), start=1):
            if self.seat.seat in seats:
                return place
        return None


@dataclass
class BotRun:
    """What ``run_bot`` did: the games played to their end, and the seats lost on the
    way (the table gone, the server away past the retry policy) with why."""

    played: list[Played] = field(default_factory=list)
    lost: list[tuple[GameSeat, str]] = field(default_factory=list)


async def run_bot(client: BotClient, policy: Policy, seeking: Seeking | None = None, *,
                  games: int | None = None, parallel: int = 1, seek: bool = True,
                  challenges: bool = True, after: int | None = None,
                  on_game: Callable[[Played], Any] | None = None) -> BotRun:
    """Seek the tables of ``seeking`` (default ``Seeking()``; ``seek`` False: answer
    challenges only) in the arena and play ``games`` games with
    ``policy`` (None: until cancelled), at most ``parallel`` at once; accept challenges
    to the tables sought (``seeking``'s game, players and preset) while there is room
    (others are declined); ``on_game`` is told
    each game played. It acts on the events after number ``after`` (None: only those
    that come once it has started, not those kept from before). The seek is
    withdrawn on the way out. A policy's failure (``PolicyError``, or any exception of
    the policy's own) ends the run with it; a seat lost is noted and the run goes on."""
    if parallel < 1:
        raise ValueError(f"parallel must be at least 1, not {parallel}")
    run = _Run(client, policy, seeking or Seeking(), games, parallel, seek, challenges,
               on_game)
    if after is not None:
        client.after = after
    try:
        return await run.go(skip_kept=after is None)
    finally:
        await run.stop()


class _Run:
    def __init__(self, client: BotClient, policy: Policy, seeking: Seeking,
                 games: int | None, parallel: int, seek: bool, challenges: bool,
                 on_game: Callable[[Played], Any] | None) -> None:
        self.client, self.policy, self.seeking, self.seek = client, policy, seeking, seek
        self.games, self.parallel, self.challenges = games, parallel, challenges
        self.on_game = on_game
        self.report = BotRun()
        self.started = 0  # seats taken up (games begun or resumed)
        self.seats: dict[tuple[str, int], asyncio.Task[Played]] = {}
        self.given: dict[asyncio.Task[Played], GameSeat] = {}
        self.seek_since: float | None = None  # when the standing seek was made
        # events, and tasks that ended: a seat's, or the events' poller (only by failing)
        self.inbox: asyncio.Queue[Message | asyncio.Task[Any]] = asyncio.Queue()
        self.poller: asyncio.Task[None] | None = None

    @property
    def running(self) -> int:
        return len(self.seats)

    def room(self) -> bool:
        """Whether another game may begin: under ``parallel`` and the games asked for."""
        return self.running < self.parallel and (self.games is None
                                                 or self.started < self.games)

    async def go(self, skip_kept: bool) -> BotRun:
        me = await self.client.me()
        log.info("playing as %s (%s)", me.name, me.id)
        if skip_kept:
            await self._skip_kept()
        self.poller = asyncio.create_task(self._poll(), name="bot events")
        self.poller.add_done_callback(self.inbox.put_nowait)
        while self.games is None or self.started < self.games or self.seats:
            await self._seek_if_room()
            try:
                item = await asyncio.wait_for(self.inbox.get(), SEEK_CHECK_SECONDS)
            except TimeoutError:
                await self._check_seek()
                continue
            if item is self.poller:
                raise item.exception() or ClientError("the bot's events ended")
            if isinstance(item, asyncio.Task):
                self._ended(item)
            else:
                await self._event(item)
        return self.report

    async def _skip_kept(self) -> None:
        """Move past the events kept from before (old seats, old challenges)."""
        while await self.client.poll(wait=0):
            pass

    async def _poll(self) -> None:
        async for event in self.client.events():
            self.inbox.put_nowait(event)

    async def _seek_if_room(self) -> None:
        if not self.seek or self.seek_since is not None or not self.room():
            return
        s = self.seeking
        await self.client.seek(s.game, s.players, s.preset, s.rated)
        self.seek_since = time.monotonic()

    async def _check_seek(self) -> None:
        """A seek waiting long: made again if the server no longer holds it."""
        if self.seek_since is None:
            return
        state = await self.client.seek_state()
        if state.get("state") != "waiting":
            self.seek_since = None

    async def _event(self, event: Message) -> None:
        kind = event.get("type")
        if kind == "game":
            if event.get("arena"):
                self.seek_since = None  # the seek was seated: seek again to play on
            self._take(GameSeat.of(event))
        elif kind == "challenge":
            await self._challenged(event)
        elif kind == "challenge_ended":
            log.info("challenge %s ended: %s", event.get("id"), event.get("state"))

    def _fits(self, challenge: Message) -> bool:
        """Whether a challenge is to the tables sought (a policy may know one table's
        size and rules only)."""
        s = self.seeking
        return (challenge.get("game") == s.game
                and s.players in (None, challenge.get("players"))
                and challenge.get("preset", DEFAULT_PRESET) == (s.preset or DEFAULT_PRESET))

    async def _challenged(self, event: Message) -> None:
        challenge_id = str(event["id"])
        if not (self.challenges and self._fits(event) and self.room()):
            with contextlib.suppress(ServerError):  # (withdrawn or expired meanwhile)
                await self.client.decline(challenge_id)
            return
        try:
            given = await self.client.accept(challenge_id)
        except ServerError as exc:
            log.info("challenge %s not accepted: %s", challenge_id, exc)
            return
        self._take(given)

    def _take(self, given: GameSeat) -> None:
        key = (given.table_id, given.seat)
        if key in self.seats:
            return  # (an accepted challenge's seat comes as a ``game`` event too)
        self.started += 1
        task = asyncio.create_task(self._play(given), name=f"seat {key}")
        self.seats[key] = task
        self.given[task] = given
        task.add_done_callback(self.inbox.put_nowait)

    async def _play(self, given: GameSeat) -> Played:
        async with self.client.seat(given) as seat:
            final = await play(seat, self.policy, games=1)
        return Played(given, final)

    def _ended(self, task: asyncio.Task[Played]) -> None:
        given = self.given.pop(task)
        del self.seats[(given.table_id, given.seat)]
        error = task.exception()
        if isinstance(error, ClientError) and not isinstance(error, PolicyError):
            log.warning("seat %s of table %s lost: %s", given.seat, given.table_id, error)
            self.report.lost.append((given, str(error)))
            return
        if error is not None:
            raise error
        played = task.result()
        self.report.played.append(played)
        log.info("game %d over at table %s, seat %d: place %s", len(self.report.played),
                 given.table_id, given.seat, played.place)
        if self.on_game is not None:
            self.on_game(played)

    async def stop(self) -> None:
        tasks = [t for t in (self.poller, *self.seats.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.seek_since is not None:
            with contextlib.suppress(ClientError):
                await self.client.cancel_seek()

