"""Events of a Bluff game, each with its audience (None: everyone).

Events are values: their fields are ``Final``, so mypy refuses an assignment to one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from usotsuki.bluff.actions import Call
from usotsuki.cards import Card


@dataclass(slots=True, unsafe_hash=True)
class RoundDealt:
    """A round began (B3, B4): public facts only, the hand sizes, not the cards."""

    round: Final[int]
    dealer: Final[int]
    first_caller: Final[int]
    hand_sizes: Final[tuple[int, ...]]
    audience: Final[frozenset[int] | None] = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "round_dealt", "round": self.round, "dealer": self.dealer,
                "first_caller": self.first_caller, "hand_sizes": list(self.hand_sizes)}


@dataclass(slots=True, unsafe_hash=True)
class HandDealt:
    """One seat's cards for the round: seen by that seat alone."""

    seat: Final[int]
    cards: Final[tuple[Card, ...]]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))

    def to_json(self) -> dict[str, Any]:
        return {"type": "hand_dealt", "seat": self.seat, "cards": [str(c) for c in self.cards]}


@dataclass(slots=True, unsafe_hash=True)
class Called:
    seat: Final[int]
    call: Final[Call]
    audience: Final[frozenset[int] | None] = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "called", "seat": self.seat, "call": str(self.call)}


@dataclass(slots=True, unsafe_hash=True)
class Challenged:
    """A challenge (B9): every hand is revealed to everyone, and the verdict given."""

    challenger: Final[int]
    caller: Final[int]
    call: Final[Call]
    call_true: Final[bool]
    loser: Final[int]
    eliminated: Final[bool]
    hands: Final[tuple[tuple[Card, ...], ...]]
    audience: Final[frozenset[int] | None] = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "challenged", "challenger": self.challenger, "caller": self.caller,
                "call": str(self.call), "call_true": self.call_true, "loser": self.loser,
                "eliminated": self.eliminated,
                "hands": [[str(c) for c in hand] for hand in self.hands]}


@dataclass(slots=True, unsafe_hash=True)
class GameOver:
    standings: Final[tuple[tuple[int, ...], ...]]
    audience: Final[frozenset[int] | None] = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "game_over", "standings": [list(p) for p in self.standings]}
