"""Bot decisions off the event loop: a bounded pool of worker processes, a deadline each.

The expert searches for up to a second; under the GIL a thread would still stall every
table, so bots think in ``workers`` processes (pebble's pool: a task past its deadline is
cancelled and its worker replaced), reniced so the server's own process keeps the CPU
(or, with ``idle``, in Linux's SCHED_IDLE class: only the CPU time nobody else wants).
The pool bounds the bots' share of the machine however many bot tables play. A worker
builds each bot once (``factory(game, name)``) and keeps it: bots hold only their
settings, so one instance serves every seat. A decision comes back as action text,
which the table then checks and applies like a person's.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
from collections.abc import Callable
from typing import Any

from pebble import ProcessExpired, ProcessPool

from usotsuki.bots import make_bot
from usotsuki.bots.base import AnyBot
from usotsuki.games import game as game_entry
from usotsuki.server.config import Clock

BotFactory = Callable[[str, str], AnyBot]

_factory: BotFactory = make_bot
_bots: dict[tuple[str, str], AnyBot] = {}


def _start_worker(factory: BotFactory, nice: int, idle: bool) -> None:
    global _factory
    _factory = factory
    if idle and hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        # Linux: the CPU's leftovers only; any server wake-up preempts the bot at once.
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)


def decide(game: str, name: str, view: Any, legal: Any, seed: int | str) -> str:
    """In a worker: the bot's action for this view, as canonical text."""
    bot = _bots.get((game, name))
    if bot is None:
        bot = _bots[game, name] = _factory(game, name)
    action = bot.act(view, legal, random.Random(seed))
    return game_entry(game).format_action(action)


def _warm() -> None:
    import usotsuki.bots.bluff.hints
    import usotsuki.bots.bluff.levels
    import usotsuki.bots.liar.calibrated
    import usotsuki.bots.liar.search  # noqa: F401


class BotFault(Exception):
    """A bot gave no usable answer: it raised, its worker died, or it missed the deadline.
    ``reason`` says which in public words (the table's notice: no card, no message of the
    bot's); ``detail`` is for the server's log."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail or reason


class BotRunner:
    """Runs bot decisions in ``workers`` processes; each must answer within ``deadline``
    seconds of the ``clock`` (queueing included), else it is cancelled."""

    def __init__(self, clock: Clock, workers: int = 1, deadline: float = 5.0,
                 nice: int = 10, factory: BotFactory = make_bot, idle: bool = True) -> None:
        if workers < 1 or deadline <= 0:
            raise ValueError("a bot pool needs at least one worker and a positive deadline")
        self.clock = clock
        self.workers, self.deadline, self.nice, self.factory = workers, deadline, nice, factory
        self.idle = idle
        self._pool: ProcessPool | None = None

    def _ready_pool(self) -> ProcessPool:
        # Started on the first decision: a server (or test) without bots forks nothing.
        # "spawn": the server has threads (the store's writer), which fork would copy.
        if self._pool is None:
            self._pool = ProcessPool(self.workers, initializer=_start_worker,
                                     initargs=(self.factory, self.nice, self.idle),
                                     context=multiprocessing.get_context("spawn"))
        return self._pool

    def warm(self) -> None:
        """Start the workers now (their imports take a second or two of CPU), not on
        the first bot's turn; a worker imports the bots on this first task."""
        pool = self._ready_pool()
        for _ in range(self.workers):
            pool.schedule(_warm)

    async def decide(self, game: str, name: str, view: Any, legal: Any,
                     seed: int | str) -> str:
        """The action text the bot chose; raises :class:`BotFault`."""
        return str(await self.run(decide, game, name, view, legal, seed))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker (a module-level function, so that the spawned worker
        can import it), within the deadline; raises :class:`BotFault`."""
        future = self._ready_pool().schedule(fn, args=args)
        answer: asyncio.Future[Any] = asyncio.wrap_future(future)
        timer: asyncio.Future[None] = asyncio.ensure_future(self.clock.sleep(self.deadline))
        try:
            race: list[asyncio.Future[Any]] = [answer, timer]
            await asyncio.wait(race, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            if not answer.done():
                answer.cancel()  # pebble stops a running task by replacing its worker
        if answer.cancelled():
            raise BotFault(f"missed its {self.deadline:g} s deadline")
        try:
            return answer.result()
        except ProcessExpired as exc:
            raise BotFault("its worker process died",
                           f"worker exit code {exc.exitcode}") from None
        except Exception as exc:  # the bot's own bug: reported, never fatal
            raise BotFault("failed with an error", f"{type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join(timeout=5)
            self._pool = None
