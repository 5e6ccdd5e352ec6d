"""Deadlines for the tests' waits on servers: a wait that cannot end fails at once with
what it waited for, instead of hanging the run until the per-test timeout (or for ever).

A server that answers wrongly (an acknowledgement where a refusal was due, no answer at
all) leaves a test waiting for a message that never comes; the deadline turns that into
a failure that names the message, within seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NoReturn, TypeVar

T = TypeVar("T")

REPLY_S = 30.0
"""How long a test waits for one message or condition by default: an in-process server
answers in milliseconds, a bot's turn ends within its 5 s deadline (then a stand-in
plays), and this leaves room for a busy two-core machine."""

GAME_S = 180.0
"""How long a test waits for a whole game of bots (or several turns) to end."""


class WaitTimeout(AssertionError):
    """A test waited past its deadline: an assertion failure, so the run goes on."""


class Deadline:
    """The moment a wait must end by; :meth:`left` is the time to go, and fails the test
    once it has passed."""

    def __init__(self, what: str, seconds: float = REPLY_S) -> None:
        self.what = what
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            self.fail()
        return left

    def fail(self, detail: str = "") -> NoReturn:
        more = f" ({detail})" if detail else ""
        raise WaitTimeout(f"waited {self.seconds:g} s for {self.what}{more}")


def wait_for(check: Callable[[], T], what: str, seconds: float = REPLY_S,
             every: float = 0.05) -> T:
    """Call ``check`` every ``every`` seconds until it returns a true value, and return
    that value; fail naming ``what`` if none comes within ``seconds``."""
    deadline = Deadline(what, seconds)
    while not (value := check()):
        time.sleep(min(every, deadline.left()))
    return value
