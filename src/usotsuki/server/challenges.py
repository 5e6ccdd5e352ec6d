"""Challenges between players: a person challenges a bot (an outside bot's account, or a
house bot's level, which accepts at once), a bot challenges a person who takes bots'
challenges (``players.bot_challenges``) or another bot. The rows: ``challenge_store.py``.

The challenged sees an open challenge (a bot: a ``challenge`` event in its inbox; a
person: the home page's list) and accepts or declines it within ``EXPIRE_SECONDS``, or
the challenger withdraws it. Accepting makes the table (``seated_table``: unrated, the
challenge's turn clock, the seats beyond the two house bots', the order shuffled) and
seats both: the acceptor by the answer, the challenger by its reads of the challenge (a
long poll; each of the challenger's reads names its seat); a bot also by a ``game``
event, for every seat it gets, so that a bot playing from its events plays them all. A
bot is told of an ending it did not make by a ``challenge_ended`` event (the
challenged: withdrawn or expired; the challenger: declined or expired).

A read waiting for a change is woken at once by a change this worker made, and within
``POLL_SECONDS`` by one another worker made (one read for all the waits of a worker);
every worker sweeps the expired challenges every ``SWEEP_SECONDS`` (each ends one
challenge at most once: a conditional UPDATE).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any

from usotsuki.bots import bot_names
from usotsuki.server.bot_inbox import BotInbox
from usotsuki.server.challenge_store import (
    ACCEPTED,
    CANCELLED,
    DECLINED,
    EXPIRED,
    MAKING,
    OPEN,
    Party,
    Spec,
    accepted_at_once,
    ended_among,
    expire_due,
    find_party,
    move,
    names_of,
    open_challenge,
    open_of,
    read,
    settle,
    shown_state,
    takes_bots,
    unclaim,
)
from usotsuki.server.config import Clock, Refused
from usotsuki.server.health import unreachable
from usotsuki.server.history import BOT_PREFIX
from usotsuki.server.lobby import Lobby
from usotsuki.server.matching import PRESETS
from usotsuki.server.player_store import Player
from usotsuki.server.seating import Sitter, seated_table
from usotsuki.server.store import Store
from usotsuki.server.watch import watch_forever

log = logging.getLogger(__name__)

EXPIRE_SECONDS = 120.0  # an open challenge not answered for this long expires
SWEEP_SECONDS = 2.0  # every worker's sweep of expired challenges
POLL_SECONDS = 0.5  # waiting reads look for changes another worker made
OTHER_LEVEL = "normal"  # the house bots at an outside bot's challenge's other seats
TURN_SECONDS = (5.0, 300.0)  # the time per move a challenge may ask for
_shuffle = random.SystemRandom().shuffle


def _who(player: Player) -> Party:
    return Party(player.id, player.name, player.bot)


class Challenges:
    """One worker's challenges: the players' requests, the sweep, the waits."""

    def __init__(self, lobby: Lobby, store: Store, clock: Clock, inbox: BotInbox) -> None:
        self.lobby = lobby
        self.store = store
        self.clock = clock
        self.inbox = inbox
        self._woken: dict[str, set[asyncio.Event]] = {}  # waiting reads, by challenge
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._sweep_forever()),
                       loop.create_task(self._watch())]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    # ---- whom one may challenge ----

    async def target(self, challenger: Player, to_id: str) -> Party:
        """The player ``challenger`` may challenge, or the refusal: people challenge bots;
        bots challenge bots and the people who take bots' challenges."""
        if to_id == challenger.id:
            raise Refused("bad_challenge", "you cannot challenge yourself", 400)
        target = await self.store.call(find_party, self.store.engine, to_id)
        if target is None:
            raise Refused("not_found", "no such player", 404)
        if not target.bot and not (challenger.bot and target.takes_bots):
            raise Refused("no_challenges", "this player does not take challenges"
                          + ("" if challenger.bot else ": challenge a bot"), 403)
        return target

    async def options(self, challenger: Player, to_id: str) -> dict[str, Any]:
        """What a challenge to ``to_id`` may ask for (the profile page's form)."""
        target = await self.target(challenger, to_id)
        games = [target.game] if target.game else list(PRESETS)
        return {"to": target.public(), "level": target.level,
                "games": {g: list(PRESETS[g]) for g in games},
                "turn_seconds": {"min": TURN_SECONDS[0], "max": TURN_SECONDS[1]}}

    # ---- the challenger's side ----

    async def challenge(self, challenger: Player, to_id: str, spec: Spec,
                        address: str | None = None) -> dict[str, Any]:
        """Challenge ``to_id``. A house bot's table is made at once, held to the
        creation quotas of the challenger's ``address`` as a table of bots created by
        hand is (an outside bot's answer, and the limits of open challenges, bound the
        others)."""
        target = await self.target(challenger, to_id)
        if spec.preset not in PRESETS.get(spec.game, {}):
            raise Refused("bad_preset", f"no rules preset {spec.preset!r} for {spec.game} "
                          f"(presets: {', '.join(PRESETS.get(spec.game, {}))})", 400,
                          {"presets": list(PRESETS.get(spec.game, {}))})
        if target.game is not None and target.game != spec.game:
            raise Refused("bad_challenge", f"this bot plays {target.game} only", 400,
                          {"game": target.game})
        if not TURN_SECONDS[0] <= spec.turn_seconds <= TURN_SECONDS[1]:
            raise Refused("bad_challenge", "the time per move is from "
                          f"{TURN_SECONDS[0]:g} to {TURN_SECONDS[1]:g} seconds", 400,
                          {"min": TURN_SECONDS[0], "max": TURN_SECONDS[1]})
        me = _who(challenger)
        now = self.clock.time()
        if target.level is not None:  # a house bot accepts at once
            table_id, seats = await self._make(spec, me, target, address)
            number, token = seats[me.id]
            challenge_id = await self.store.call(accepted_at_once, self.store.engine, me.id,
                                                 target.id, spec, now, table_id,
                                                 f"{number}:{token}")
            seat = self._seat_body(table_id, seats[me.id], spec, challenge_id)
            if me.bot:
                await self.inbox.notify(me.id, seat)
            return {**self._describe_parts(challenge_id, me, target, spec, ACCEPTED, now,
                                           now), **self._seat_of(seat)}
        expires = now + EXPIRE_SECONDS
        challenge_id = await self.store.call(open_challenge, self.store.engine, me.id,
                                             target.id, spec, now, expires)
        if target.bot:
            await self.inbox.notify(target.id, {
                "type": "challenge", "id": challenge_id, "from": me.public(),
                "game": spec.game, "players": spec.players, "preset": spec.preset,
                "turn_seconds": spec.turn_seconds, "expires": expires})
        return self._describe_parts(challenge_id, me, target, spec, OPEN, now, expires)

    async def withdraw(self, player: Player, challenge_id: str) -> None:
        row = await self.store.call(move, self.store.engine, challenge_id, player.id,
                                    "from_id", CANCELLED, self.clock.time())
        await self._ended(row)

    # ---- the challenged side ----

    async def accept(self, player: Player, challenge_id: str) -> dict[str, Any]:
        """Make the table: the acceptor's seat (the challenger's is kept for them)."""
        row = await self.store.call(move, self.store.engine, challenge_id, player.id,
                                    "to_id", MAKING, self.clock.time())
        spec = _spec(row)
        challenger = await self.store.call(find_party, self.store.engine, row.from_id)
        if challenger is None:  # deleted meanwhile
            await self.store.call(unclaim, self.store.engine, challenge_id, CANCELLED)
            self._wake(challenge_id)
            raise Refused("challenge_ended", "the challenger is gone: this challenge is "
                          "cancelled", 409, {"state": CANCELLED})
        try:
            table_id, seats = await self._make(spec, challenger, _who(player))
        except BaseException:
            await self.store.call(unclaim, self.store.engine, challenge_id)
            raise
        theirs = self._seat_body(table_id, seats[challenger.id], spec, challenge_id)
        await self.store.call(settle, self.store.engine, challenge_id, table_id,
                              f"{theirs['seat']}:{theirs['token']}")
        mine = self._seat_body(table_id, seats[player.id], spec, challenge_id)
        if challenger.bot:
            await self.inbox.notify(challenger.id, theirs)
        if player.bot:
            await self.inbox.notify(player.id, mine)
        self._wake(challenge_id)
        return self._seat_of(mine)

    async def decline(self, player: Player, challenge_id: str) -> None:
        row = await self.store.call(move, self.store.engine, challenge_id, player.id,
                                    "to_id", DECLINED, self.clock.time())
        await self._ended(row)

    # ---- reading ----

    async def one(self, player: Player, challenge_id: str, wait: float = 0.0
                  ) -> dict[str, Any]:
        """The challenge, for either side; with ``wait``, once it is no longer open (or
        after ``wait`` seconds). Accepted, the challenger's reads hold their seat (a
        read whose answer was lost, a page left while waiting, loses nothing)."""
        deadline = time.monotonic() + wait
        event = asyncio.Event()
        self._woken.setdefault(challenge_id, set()).add(event)
        try:
            while True:
                row = await self.store.call(read, self.store.engine, challenge_id,
                                            player.id)
                left = deadline - time.monotonic()
                if shown_state(row, self.clock.time()) not in (OPEN, MAKING) or left <= 0:
                    return await self._describe(row, player.id)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), left)
                event.clear()
        finally:
            waits = self._woken.get(challenge_id, set())
            waits.discard(event)
            if not waits:
                self._woken.pop(challenge_id, None)

    async def listing(self, player: Player) -> dict[str, Any]:
        """The player's open challenges (and their recent accepted ones, with a seat
        to read), and whether they take bots' challenges."""
        now = self.clock.time()
        incoming, outgoing = await self.store.call(open_of, self.store.engine, player.id,
                                                   now)
        me = _who(player)

        def item(row: Any, mine_from: bool) -> dict[str, Any]:
            other = Party(row.to_id if mine_from else row.from_id, row.other_name,
                          bool(row.other_bot))
            out = self._describe_parts(row.id, me if mine_from else other,
                                       other if mine_from else me, _spec(row), row.state,
                                       row.created, row.expires)
            if row.table_id is not None:  # (the seat itself: read the challenge)
                out["table_id"] = row.table_id
            return out

        return {"incoming": [item(r, False) for r in incoming],
                "outgoing": [item(r, True) for r in outgoing],
                "from_bots": await self.store.call(takes_bots, self.store.engine,
                                                   player.id)}

    # ---- the parts ----

    async def _make(self, spec: Spec, challenger: Party, target: Party,
                    address: str | None = None) -> tuple[str, dict[str, tuple[int, str]]]:
        levels = bot_names(spec.game)
        other = target.level or (OTHER_LEVEL if OTHER_LEVEL in levels else levels[0])
        order: list[Sitter | str] = [Sitter(challenger.id, challenger.name),
                                     target.level or Sitter(target.id, target.name)]
        order += [other] * (spec.players - 2)
        _shuffle(order)  # who deals first is chance's
        config: dict[str, Any] = {
            "players": spec.players, "rules": dict(PRESETS[spec.game][spec.preset]),
            "games": 1, "turn_seconds": spec.turn_seconds, "visibility": "public",
            # a game to measure a bot by: no hints; nobody at the table to talk to
            "chat": False, "hints": False}
        table, seats = await seated_table(self.lobby, spec.game, config, order, address)
        return table.public_id, seats

    @staticmethod
    def _seat_body(table_id: str, seat: tuple[int, str], spec: Spec,
                   challenge_id: str) -> dict[str, Any]:
        """A ``game`` event: a seat is the bot's (docs/bots.md)."""
        return {"type": "game", "table_id": table_id, "seat": seat[0], "token": seat[1],
                "game": spec.game, "rated": False, "arena": False,
                "challenge": challenge_id}

    @staticmethod
    def _seat_of(body: dict[str, Any]) -> dict[str, Any]:
        return {"table_id": body["table_id"], "seat": body["seat"], "token": body["token"]}

    @staticmethod
    def _describe_parts(challenge_id: str, challenger: Party, target: Party, spec: Spec,
                        state: str, created: float, expires: float) -> dict[str, Any]:
        return {"id": challenge_id, "from": challenger.public(), "to": target.public(),
                "game": spec.game, "players": spec.players, "preset": spec.preset,
                "turn_seconds": spec.turn_seconds, "state": state, "created": created,
                "expires": expires}

    async def _describe(self, row: Any, reader: str) -> dict[str, Any]:
        names = await self.store.call(names_of, self.store.engine, [row.from_id, row.to_id])
        parties = [Party(i, *names.get(i, ("?", False))) for i in (row.from_id, row.to_id)]
        state = shown_state(row, self.clock.time())
        out = self._describe_parts(row.id, parties[0], parties[1], _spec(row),
                                   OPEN if state == MAKING else state, row.created,
                                   row.expires)
        if row.table_id is not None:
            out["table_id"] = row.table_id
        if row.from_seat is not None and reader == row.from_id:  # theirs alone
            seat, token = row.from_seat.split(":", 1)
            out |= {"seat": int(seat), "token": token}
        return out

    async def _ended(self, row: Any) -> None:
        """Tell the bots on a challenge's sides of its end they did not make; wake the
        waiting reads."""
        self._wake(row.id)
        told = {CANCELLED: [row.to_id], DECLINED: [row.from_id],
                EXPIRED: [row.to_id, row.from_id]}.get(row.state, [])
        if not told:
            return
        names = await self.store.call(names_of, self.store.engine, told)
        for player_id in told:
            if names.get(player_id, ("", False))[1] and not player_id.startswith(BOT_PREFIX):
                await self.inbox.notify(player_id, {"type": "challenge_ended", "id": row.id,
                                                    "state": row.state})

    def _wake(self, challenge_id: str) -> None:
        for event in self._woken.get(challenge_id, ()):
            event.set()

    async def _sweep_forever(self) -> None:
        while True:
            await self.clock.sleep(SWEEP_SECONDS)
            try:
                for row in await self.store.call(expire_due, self.store.engine,
                                                 self.clock.time()):
                    await self._ended(row)
            except Exception as exc:  # the next sweep tries again
                if not unreachable(exc):
                    log.exception("the sweep of expired challenges failed")

    async def _watch(self) -> None:
        """Wake the reads waiting here on challenges another worker moved."""
        await watch_forever(
            self.clock, POLL_SECONDS, lambda: list(self._woken),
            lambda ids: self.store.call(ended_among, self.store.engine, ids,
                                        self.clock.time()),
            self._wake, "challenges being waited for")

def _spec(row: Any) -> Spec:
    return Spec(row.game, row.players, row.preset, row.turn_seconds)
