"""Who plays next, and when: a bot's turn after its delay, a person's turn limit, and the
stand-in that plays a turn a bot failed (said publicly, never silently).

Each table has one :class:`Turns`. After every command the table calls ``schedule``: the
seat to move gets a timer (a bot's delay, or a person's time per turn); when it fires, the
bot's decision is made in a worker process (the event loop carries on) and played through
the table's own checked path, as a person's action is. Only the worker that writes the
table's log runs timers (``Table.writer``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from usotsuki.bots import bot_names
from usotsuki.games import AnySession
from usotsuki.server.bot_runner import BotFault
from usotsuki.server.config import Refused
from usotsuki.server.games import view_json

if TYPE_CHECKING:
    from usotsuki.server.table import Table

log = logging.getLogger("usotsuki.server")

STAND_INS = ("normal", "sensible", "cautious", "random")
"""Preferred bots to play for a person whose turn timed out or who left mid-game."""

FALLBACK = "random"
"""Plays a bot's turn when the bot fails (it raised, or missed its deadline): said
publicly in a ``stand_in`` event, never silently."""


def stand_in(game: str) -> str:
    names = bot_names(game)
    return next((n for n in STAND_INS if n in names), names[0])


Deadline = tuple[int, float, float]
"""A person's turn clock: (seat, when it ends on the clock, seconds per turn)."""


class Turns:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.pending: asyncio.Task[None] | None = None
        self.deadline: Deadline | None = None
        self._hurry: int | None = None  # the game whose bots play at once (nobody reads)

    def schedule(self) -> None:
        """Start the timer of the seat to move: a bot's delay, or a person's turn limit."""
        table = self.table
        if self.pending is not None and self.pending is not asyncio.current_task():
            self.pending.cancel()
        self.pending = None
        self.deadline = None
        slot = table.current
        if table.writer and slot is not None and slot.fair is not None and slot.collecting:
            # the contributions to the deal close when their time is up
            left = max(0.0, slot.fair.until - table.clock.time())
            self.pending = asyncio.get_running_loop().create_task(self._close(left))
            return
        if (not table.writer or table.parked or slot is None or slot.session.is_over
                or slot.session.to_move is None):
            return
        if table.seq >= table.settings.max_entries:
            return  # the cap refuses every further action: nobody is woken
        seat = slot.session.to_move
        bot = table.seats[seat].bot
        timeout = False
        if bot is not None:
            delay, name = table.settings.bot_delay, bot
            if self._hurry == slot.number:
                delay = 0.0
            elif table.seq - table.revealed <= 1:  # a reveal is on show: let people read it
                delay *= table.settings.reveal_pause
        elif (seconds := table.turn_seconds) is not None:
            delay, name, timeout = seconds, stand_in(table.game), True
            self.deadline = (seat, table.clock.time() + seconds, seconds)
        else:
            return
        self.pending = asyncio.get_running_loop().create_task(
            self._bot_turn(table.seq, seat, name, delay, timeout))

    async def _close(self, delay: float) -> None:
        await self.table.clock.sleep(delay)
        try:
            await self.table.resume()  # (closes them and deals, if still due)
        except Refused as exc:  # the database away: the same, after its retry_after
            log.warning("table %s: contributions not closed: %s", self.table.public_id,
                        exc.message)
            self.pending = asyncio.get_running_loop().create_task(
                self._close(exc.retry_after or 1.0))

    @property
    def running(self) -> bool:
        """Whether a timer runs: a bot's turn, or a person's turn clock."""
        return self.pending is not None and not self.pending.done()

    def started(self) -> None:
        """A game started: its bots play at their pace until somebody hurries them."""
        self._hurry = None

    async def hurry(self, seat: int | None) -> bool:
        """Bots play at once for the rest of this game, if no person is left to read it:
        every person's seat is out (Bluff, B2). True when granted."""
        table = self.table
        slot = table.current
        if slot is None or not table.playing or not table.entry.hurry:
            return False
        view = view_json(slot.session, None) or {}
        out = set(view.get("eliminated", ()))
        people = {s.seat for s in table.seats if s.bot is None}
        if seat not in out or not people <= out:
            return False
        self._hurry = slot.number

        async def again() -> None:
            self.schedule()

        await table.serialised(again)
        return True

    async def _bot_turn(self, seq: int, seat: int, name: str, delay: float,
                        timeout: bool = False) -> None:
        table = self.table
        if delay > 0:
            await table.clock.sleep(delay)
        slot = table.current
        if slot is None or table.seq != seq:
            return
        session = slot.session
        notice = None
        try:  # the decision is made in a worker process, the loop carries on meanwhile
            if table.runner is None:
                raise BotFault("this server runs no bots")
            text = await table.runner.decide(table.game, name, session.view(seat),
                                             session.legal(), table.seed(f"bot{seat}"))
        except BotFault as fault:
            text, notice = self._fall_back(session, seat, name, fault.reason, fault.detail)
        async with table.lock:
            try:
                await table.settle()
            except Refused as exc:
                self._again(exc, seq, seat, name, timeout)
                return
            if table.seq != seq:  # somebody acted meanwhile
                return
            late = {"bot": name} if timeout else None  # said in a public "timeout" event
            try:
                await table.play(seat, text, notice, late)
            except Refused as exc:
                if exc.retry_after is not None:
                    self._again(exc, seq, seat, name, timeout)
                    return
                if exc.code != "illegal":
                    log.warning("table %s: seat %d's bot could not act: %s", table.public_id,
                                seat, exc.message)
                    return
                # The bot chose an illegal action: its bug, told publicly; a stand-in
                # plays this turn through the same checked path, once.
                text, notice = self._fall_back(session, seat, name, "chose an illegal action",
                                               f"{text!r}: {exc.message}")
                try:
                    await table.play(seat, text, notice, late)
                except Refused as again:  # cannot happen: a legal action of this state
                    log.error("table %s: the stand-in failed too: %s", table.public_id,
                              again.message)

    def _again(self, refused: Refused, seq: int, seat: int, name: str,
               timeout: bool) -> None:
        """The turn could not be written now (the database is away): try it again after
        the refusal's ``retry_after``, as a client would."""
        log.warning("table %s: seat %d's turn is retried: %s", self.table.public_id, seat,
                    refused.message)
        self.pending = asyncio.get_running_loop().create_task(
            self._bot_turn(seq, seat, name, refused.retry_after or 1.0, timeout))

    def _fall_back(self, session: AnySession, seat: int, name: str, reason: str,
                   detail: str) -> tuple[str, dict[str, Any]]:
        # The log line may name the bot's cards; the public notice never does.
        log.warning("table %s: the %s bot at seat %d %s (%s); %s plays this turn",
                    self.table.public_id, name, seat, reason, detail, FALLBACK)
        rng = self.table.rng(f"fallback{seat}")
        text = self.table.entry.format_action(session.random_action(rng))
        return text, {"bot": name, "by": FALLBACK, "reason": reason}

    def stop(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
