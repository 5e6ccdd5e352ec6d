"""What happened in a step, and who may see it (STYLE: lila ``Event.only``).

Every event has ``audience``: ``None`` for everyone, else the seats that may see it. A
private fact comes with a public shadow: ``PlayedCards`` (the player) beside ``Played``
(count and rate for all), ``DrewCards`` beside ``Drew``. Events are values: their
fields are ``Final``, so mypy refuses an assignment to one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Final

from usotsuki.cards import Card
from usotsuki.liar.actions import RATE_NAMES


@dataclass(slots=True, unsafe_hash=True)
class Event(ABC):
    """Base of the Liar Game's events: public unless a subclass names its audience.

    ``to_json`` is written out per event (``type`` first, cards and rates in notation);
    who may see an event is :func:`usotsuki.core.events.visible_to`'s to say.
    """

    @property
    def audience(self) -> frozenset[int] | None:
        return None

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The event as JSON: ``type`` first, cards and rates in notation."""


@dataclass(slots=True, unsafe_hash=True)
class Dealt(Event):
    """A seat's hand as dealt (L3)."""

    seat: Final[int]
    cards: Final[tuple[Card, ...]]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))

    def to_json(self) -> dict[str, Any]:
        return {"type": "dealt", "seat": self.seat, "cards": _cards(self.cards)}


@dataclass(slots=True, unsafe_hash=True)
class Gave(Event):
    """Cards moved in an O7 exchange: the count is public."""

    giver: Final[int]
    receiver: Final[int]
    count: Final[int]
    automatic: Final[bool]

    def to_json(self) -> dict[str, Any]:
        return {"type": "gave", "giver": self.giver, "receiver": self.receiver,
                "count": self.count, "automatic": self.automatic}


@dataclass(slots=True, unsafe_hash=True)
class GaveCards(Event):
    """Which cards moved in an O7 exchange: seen by both sides only."""

    giver: Final[int]
    receiver: Final[int]
    cards: Final[tuple[Card, ...]]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.giver, self.receiver))

    def to_json(self) -> dict[str, Any]:
        return {"type": "gave_cards", "giver": self.giver, "receiver": self.receiver,
                "cards": _cards(self.cards)}


@dataclass(slots=True, unsafe_hash=True)
class Played(Event):
    """A play face down (L6): its count and declared rate are public."""

    seat: Final[int]
    count: Final[int]
    rate: Final[int]

    def to_json(self) -> dict[str, Any]:
        return {"type": "played", "seat": self.seat, "count": self.count,
                "rate": RATE_NAMES[self.rate]}


@dataclass(slots=True, unsafe_hash=True)
class PlayedCards(Event):
    """The cards of a play, seen by their player only."""

    seat: Final[int]
    cards: Final[tuple[Card, ...]]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))

    def to_json(self) -> dict[str, Any]:
        return {"type": "played_cards", "seat": self.seat, "cards": _cards(self.cards)}


@dataclass(slots=True, unsafe_hash=True)
class Passed(Event):
    seat: Final[int]

    def to_json(self) -> dict[str, Any]:
        return {"type": "passed", "seat": self.seat}


@dataclass(slots=True, unsafe_hash=True)
class Drew(Event):
    """Cards drawn from the stock (L6 pass, L9 doubt): the count is public."""

    seat: Final[int]
    count: Final[int]

    def to_json(self) -> dict[str, Any]:
        return {"type": "drew", "seat": self.seat, "count": self.count}


@dataclass(slots=True, unsafe_hash=True)
class DrewCards(Event):
    seat: Final[int]
    cards: Final[tuple[Card, ...]]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))

    def to_json(self) -> dict[str, Any]:
        return {"type": "drew_cards", "seat": self.seat, "cards": _cards(self.cards)}


@dataclass(slots=True, unsafe_hash=True)
class Doubted(Event):
    """L9: the doubted play turned face up for all."""

    doubter: Final[int]
    doubted: Final[int]
    cards: Final[tuple[Card, ...]]
    rate: Final[int]
    truthful: Final[bool]

    def to_json(self) -> dict[str, Any]:
        return {"type": "doubted", "doubter": self.doubter, "doubted": self.doubted,
                "cards": _cards(self.cards), "rate": RATE_NAMES[self.rate],
                "truthful": self.truthful}


@dataclass(slots=True, unsafe_hash=True)
class Accepted(Event):
    """L10: the next player let a play that emptied a hand stand."""

    seat: Final[int]

    def to_json(self) -> dict[str, Any]:
        return {"type": "accepted", "seat": self.seat}


@dataclass(slots=True, unsafe_hash=True)
class Flushed(Event):
    """L8: the field's cards went, shuffled, under the stock."""

    count: Final[int]
    cause: Final[str]  # "all passed" (L7) or "doubt" (L9)

    def to_json(self) -> dict[str, Any]:
        return {"type": "flushed", "count": self.count, "cause": self.cause}


@dataclass(slots=True, unsafe_hash=True)
class OrderChanged(Event):
    """The rate order in force changed (O2, O4, O5, or a J-back ending at a flush)."""

    reversed: Final[bool]
    cause: Final[str]  # "revolution", "jack back", "six up", "flush"

    def to_json(self) -> dict[str, Any]:
        return {"type": "order_changed", "reversed": self.reversed, "cause": self.cause}


@dataclass(slots=True, unsafe_hash=True)
class Bound(Event):
    """O6: from now until the flush each play must declare the next rate."""

    rate: Final[int]

    def to_json(self) -> dict[str, Any]:
        return {"type": "bound", "rate": RATE_NAMES[self.rate]}


@dataclass(slots=True, unsafe_hash=True)
class GameOver(Event):
    """L11: the game ended; ``winner`` is None when the turn limit ended it."""

    winner: Final[int | None]
    standings: Final[tuple[tuple[int, ...], ...]]

    def to_json(self) -> dict[str, Any]:
        return {"type": "game_over", "winner": self.winner,
                "standings": [list(place) for place in self.standings]}


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]
