"""A game's fair deal at the server: commitment, contributions, the deals derived from
them, and the reveal (docs/fairness.md).

At a game's start the table's writer draws a secret and logs it with its commitment (the
secret stays in the log, as the Liar seed does; only the commitment is published). Each
person's client then sends a contribution; when every person still seated has given one,
or the deadline passes, the writer logs the close (who gave none, and the Liar seed now
derived) and the first deal with it. Every deal of the game is derived from the secret
and the contributions by :mod:`usotsuki.fairness`; the secret is told to all when the
game ends, and the game's record carries the ``fairness`` object a verifier checks.

Everything here is a pure function of the logged data: the fold of a table's log (on
its writer, a follower or a table reloaded after a crash) rebuilds the same state.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from usotsuki.games import AnySession
from usotsuki.server import fairness_interim as fairness
from usotsuki.session import LiarSession

CONTRIBUTION = re.compile(r"[0-9a-f]{64}")
"""A contribution: 32 bytes as 64 lowercase hexadecimal digits (docs/fairness.md)."""


@dataclass(frozen=True, slots=True)
class FairGame:
    """One game's fairness state, folded from its log entries."""

    table: str  # the table's public id (in the committed text)
    game: int  # the game's number at the table
    secret: str  # hexadecimal; never sent before the game has ended
    commitment: str
    until: float  # clock time at which contributions close
    people: tuple[int, ...]  # seats of people at the start: their contributions awaited
    contributions: tuple[tuple[int, str], ...] = ()  # (seat, value), in the log's order
    closed: bool = False
    missing: tuple[int, ...] = ()  # people who gave none (said to everyone at the close)
    deals: int = 0  # deals derived so far

    @property
    def given(self) -> dict[int, str]:
        return dict(self.contributions)

    def waiting(self, bots: Sequence[bool]) -> list[int]:
        """The people still seated (``bots[seat]`` false) whose contribution is awaited."""
        given = self.given
        return [s for s in self.people if s not in given and not bots[s]]


def new_secret(deal_seed: int | None, table_pk: int, seq: int) -> str:
    """A game's secret; with ``deal_seed`` (tests and demos only) a predictable one."""
    if deal_seed is None:
        return fairness.new_secret()
    return hashlib.sha256(f"{deal_seed}:{table_pk}:secret:{seq}".encode()).hexdigest()


def start_data(table: str, game: int, secret: str, until: float,
               people: Sequence[int]) -> dict[str, Any]:
    """The ``fairness`` part of a game's ``start`` entry (kept in the log, never sent)."""
    return {"secret": secret, "commitment": fairness.commitment(secret, table, game),
            "until": until, "people": list(people)}


def from_start(table: str, game: int, data: dict[str, Any]) -> FairGame:
    return FairGame(table, game, str(data["secret"]), str(data["commitment"]),
                    float(data["until"]), tuple(int(s) for s in data["people"]))


def valid_contribution(value: Any) -> bool:
    return isinstance(value, str) and CONTRIBUTION.fullmatch(value) is not None


def contribute(fair: FairGame, seat: int, value: str) -> FairGame:
    """The game with ``seat``'s contribution (checked by the table before it is logged)."""
    return replace(fair, contributions=(*fair.contributions, (seat, value)))


def close_data(fair: FairGame, seeded: bool) -> dict[str, Any]:
    """The close entry's data: who gave none, and (a game with a seed: the Liar Game's)
    the seed derived from the secret and the contributions."""
    data: dict[str, Any] = {"missing": [s for s in fair.people if s not in fair.given]}
    if seeded:
        data["seed"] = fairness.liar_seed(_key(fair))
    return data


def close(fair: FairGame, data: dict[str, Any]) -> FairGame:
    return replace(fair, closed=True, missing=tuple(int(s) for s in data["missing"]))


def with_seed(session: AnySession, seed: int) -> AnySession:
    """A game not dealt yet, whose flush order follows from ``seed`` (the Liar Game's,
    RULES.md Part 4): its seed is derived at the close, not drawn at the start."""
    if not isinstance(session, LiarSession) or session.match is not None:
        raise ValueError("only a Liar Game not dealt yet takes a seed")
    return replace(session, seed=seed)


def deal_rng(fair: FairGame) -> random.Random:
    """The generator of the game's next deal (its ``deals``-th), derived from the secret
    and the contributions."""
    return fairness.deal_rng(_key(fair), fair.deals)


def dealt(fair: FairGame) -> FairGame:
    return replace(fair, deals=fair.deals + 1)


def _key(fair: FairGame) -> bytes:
    return fairness.key(fair.secret, sorted(fair.contributions))


def public(fair: FairGame, bots: Sequence[bool], now: float, over: bool) -> dict[str, Any]:
    """What every seat and spectator is told of the game's fairness in its state: the
    commitment, whether contributions are being collected (whose, and for how long), who
    gave none, and the secret once the game has ended."""
    collecting = not fair.closed
    out: dict[str, Any] = {
        "commitment": fair.commitment, "collecting": collecting,
        "waiting": fair.waiting(bots) if collecting else [],
        "left": round(max(0.0, fair.until - now), 1) if collecting else None,
        "given": sorted(fair.given), "missing": list(fair.missing),
        "secret": fair.secret if over else None}
    return out


def record_object(fair: FairGame) -> dict[str, Any]:
    """The record's top-level ``fairness`` object (docs/fairness.md), once the game ended."""
    return fairness.record_object(fair.secret, fair.commitment, fair.table, fair.game,
                                  sorted(fair.contributions), fair.missing, fair.deals)


def new_contribution() -> str:
    """A client's contribution: 32 bytes from the operating system's secure source."""
    return secrets.token_hex(32)
