"""A game's fair deal at the server: commitment, contributions, their close, and the
reveal (docs/fairness.md: the procedure is :mod:`usotsuki.fairness`'s).

At a game's start the table's writer draws a secret and logs it with its commitment (the
secret stays in the log, as the Liar seed did; only the commitment is published). Each
person's client then sends a contribution; when every person still seated has given one,
or the deadline passes, the writer logs the close (the contributions that count, ``null``
for a person who gave none) with the first deal. From the close on, the session carries
the game's :class:`~usotsuki.fairness.Fairness`: every deal and the Liar seed are derived
from it, and its record holds it (the secret once the game is over).

Everything here is a pure function of the logged data: the fold of a table's log (on its
writer, a follower or a table reloaded after a crash) rebuilds the same state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from usotsuki.fairness import (
    Contribution,
    Fairness,
    commitment,
    new_secret,
    seeded_secret,
)
from usotsuki.games import AnySession

CONTRIBUTION = re.compile(r"[0-9a-f]{64}")
"""A contribution's value: 32 bytes as 64 lowercase hexadecimal digits (docs/fairness.md)."""


def valid_contribution(value: Any) -> bool:
    return isinstance(value, str) and CONTRIBUTION.fullmatch(value) is not None


@dataclass(frozen=True, slots=True)
class FairGame:
    """One game's fairness at the table, folded from its log entries."""

    table: str  # the table's public id (in the committed text)
    game: int  # the game's number at the table
    secret: str  # hexadecimal; never sent before the game has ended
    commitment: str
    until: float  # clock time at which contributions close
    people: tuple[int, ...]  # seats of people at the start: their contributions awaited
    given: tuple[tuple[int, str], ...] = ()  # (seat, value), in the log's order
    closed: bool = False
    missing: tuple[int, ...] = ()  # people who gave none (said to everyone at the close)

    def value_of(self, seat: int) -> str | None:
        return dict(self.given).get(seat)

    def waiting(self, bots: Sequence[bool]) -> list[int]:
        """The people still seated (``bots[seat]`` false) whose contribution is awaited."""
        given = dict(self.given)
        return [s for s in self.people if s not in given and not bots[s]]


def game_secret(deal_seed: int | None, table_pk: int, seq: int) -> str:
    """A game's secret; with ``deal_seed`` (tests and demos only) a predictable one."""
    if deal_seed is None:
        return new_secret()
    return seeded_secret(f"{deal_seed}:{table_pk}:{seq}")


def start_data(table: str, game: int, secret: str, until: float,
               people: Sequence[int]) -> dict[str, Any]:
    """The ``fairness`` part of a game's ``start`` entry (kept in the log, never sent)."""
    return {"secret": secret, "commitment": commitment(table, game, secret),
            "until": until, "people": list(people)}


def from_start(table: str, game: int, data: dict[str, Any]) -> FairGame:
    return FairGame(table, game, str(data["secret"]), str(data["commitment"]),
                    float(data["until"]), tuple(int(s) for s in data["people"]))


def contribute(fair: FairGame, seat: int, value: str) -> FairGame:
    """The game with ``seat``'s contribution (checked by the table before it is logged)."""
    return replace(fair, given=(*fair.given, (seat, value)))


def close_data(fair: FairGame, bots: Sequence[bool]) -> dict[str, Any]:
    """The close entry's data: one contribution per seat a person holds now, or gave one
    (``null``: none in time), in seat order (docs/fairness.md, 2)."""
    given = dict(fair.given)
    seats = [s for s in fair.people if s in given or not bots[s]]
    return {"contributions": [{"seat": s, "value": given.get(s)} for s in seats]}


def close(fair: FairGame, data: dict[str, Any]) -> tuple[FairGame, Fairness]:
    """The game once its contributions are closed, and its record's fairness object."""
    contributions = tuple(Contribution(int(c["seat"]), c["value"])
                          for c in data["contributions"])
    missing = tuple(c.seat for c in contributions if c.value is None)
    fairness = Fairness.committed(fair.table, fair.game, fair.secret, contributions)
    return replace(fair, closed=True, missing=missing), fairness


def sealed(session: AnySession, fairness: Fairness) -> AnySession:
    """The session not dealt yet, from now on dealt from ``fairness`` (a Liar Game's
    first deal carries the flush seed derived from it)."""
    return session.with_fairness(fairness)


def public(fair: FairGame, bots: Sequence[bool], now: float, over: bool) -> dict[str, Any]:
    """What every seat and spectator is told of the game's fairness in its state: the
    commitment, whether contributions are being collected (whose, and for how long), who
    gave and who gave none, and the secret once the game has ended."""
    collecting = not fair.closed
    return {
        "commitment": fair.commitment, "collecting": collecting,
        "waiting": fair.waiting(bots) if collecting else [],
        "left": round(max(0.0, fair.until - now), 1) if collecting else None,
        "given": sorted(dict(fair.given)), "missing": list(fair.missing),
        "secret": fair.secret if over else None}
