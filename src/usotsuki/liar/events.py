"""What happened in a step, and who may see it (STYLE: lila ``Event.only``).

Every event has ``audience``: ``None`` for everyone, else the seats that may see it. A
private fact comes with a public shadow: ``PlayedCards`` (the player) beside ``Played``
(count and rate for all), ``DrewCards`` beside ``Drew``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any

from usotsuki.cards import Card
from usotsuki.liar.actions import RATE_NAMES


@dataclass(frozen=True, slots=True)
class Event:
    @property
    def audience(self) -> frozenset[int] | None:
        return None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready object: ``type`` in snake case, cards and rates in notation."""
        out: dict[str, Any] = {"type": _snake_case(type(self).__name__)}
        for f in fields(self):
            out[f.name] = _json_value(f.name, getattr(self, f.name))
        return out

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        audience = self.audience
        return audience is None or (seat is not None and seat in audience)


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A seat's hand as dealt (L3)."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class Gave(Event):
    """Cards moved in an O7 exchange: the count is public."""

    giver: int
    receiver: int
    count: int
    automatic: bool


@dataclass(frozen=True, slots=True)
class GaveCards(Event):
    """Which cards moved in an O7 exchange: seen by both sides only."""

    giver: int
    receiver: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.giver, self.receiver))


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A play face down (L6): its count and declared rate are public."""

    seat: int
    count: int
    rate: int


@dataclass(frozen=True, slots=True)
class PlayedCards(Event):
    """The cards of a play, seen by their player only."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Cards drawn from the stock (L6 pass, L9 doubt): the count is public."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class DrewCards(Event):
    seat: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class Doubted(Event):
    """L9: the doubted play turned face up for all."""

    doubter: int
    doubted: int
    cards: tuple[Card, ...]
    rate: int
    truthful: bool


@dataclass(frozen=True, slots=True)
class Accepted(Event):
    """L10: the next player let a play that emptied a hand stand."""

    seat: int


@dataclass(frozen=True, slots=True)
class Flushed(Event):
    """L8: the field's cards went, shuffled, under the stock."""

    count: int
    cause: str  # "all passed" (L7) or "doubt" (L9)


@dataclass(frozen=True, slots=True)
class OrderChanged(Event):
    """The rate order in force changed (O2, O4, O5, or a J-back ending at a flush)."""

    reversed: bool
    cause: str  # "revolution", "jack back", "six up", "flush"


@dataclass(frozen=True, slots=True)
class Bound(Event):
    """O6: from now until the flush each play must declare the next rate."""

    rate: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """L11: the game ended; ``winner`` is None when the turn limit ended it."""

    winner: int | None
    standings: tuple[tuple[int, ...], ...]


def _snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _json_value(name: str, value: Any) -> Any:
    if name == "rate":
        return RATE_NAMES[value]
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_json_value("", v) for v in value]
    return value
