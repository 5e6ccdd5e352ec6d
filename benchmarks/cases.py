"""What a benchmark row is: a game, a path, a player count, how to play it and list it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from harness import Driver


@dataclass
class Case:
    """One row of the table.

    ``make_driver()`` returns the driver (see :mod:`harness`). ``make_lister()``, when
    given, returns ``list_all(rounds)`` over a fixed sample of decision states; rows that
    share a ``listing_key`` share one listing figure (the checked and fast paths of a game
    list actions with the same function).
    """

    key: str  # stable id in results.json, e.g. "bluff/push/5"
    game: str  # shown in the table
    path: str  # "push", "apply", "C++", "Python" ...
    players: int
    make_driver: Callable[[], Driver]
    make_lister: Callable[[], Callable[[int], int]] | None = None
    listing_key: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    note: str = ""  # short, in the table
    detail: str = ""  # longer, under the table and in results.json
    players_text: str = ""  # shown instead of the count, e.g. "2 only"
    baseline: str | None = None  # set on the rows our figures are divided by


def sample_states(play_one: Callable[[random.Random, list[Any]], None], count: int,
                  seed: int) -> list[Any]:
    """At least ``count`` decision states from whole random games (``play_one`` appends the
    states where a player must act, in play order)."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        play_one(rng, states)
    return states[:count]
