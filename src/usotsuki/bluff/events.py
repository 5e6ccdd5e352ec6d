"""Events of a Bluff game, each with its audience (None: everyone)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from usotsuki.bluff.actions import Call
from usotsuki.cards import Card


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """A round began (B3, B4): public facts only, the hand sizes, not the cards."""

    round: int
    dealer: int
    first_caller: int
    hand_sizes: tuple[int, ...]
    audience: frozenset[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "round_dealt", "round": self.round, "dealer": self.dealer,
                "first_caller": self.first_caller, "hand_sizes": list(self.hand_sizes)}


@dataclass(frozen=True, slots=True)
class HandDealt:
    """One seat's cards for the round: seen by that seat alone."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))

    def to_json(self) -> dict[str, Any]:
        return {"type": "hand_dealt", "seat": self.seat, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Called:
    seat: int
    call: Call
    audience: frozenset[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "called", "seat": self.seat, "call": str(self.call)}


@dataclass(frozen=True, slots=True)
class Challenged:
    """A challenge (B9): every hand is revealed to everyone, and the verdict given."""

    challenger: int
    caller: int
    call: Call
    call_true: bool
    loser: int
    eliminated: bool
    hands: tuple[tuple[Card, ...], ...]
    audience: frozenset[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "challenged", "challenger": self.challenger, "caller": self.caller,
                "call": str(self.call), "call_true": self.call_true, "loser": self.loser,
                "eliminated": self.eliminated,
                "hands": [[str(c) for c in hand] for hand in self.hands]}


@dataclass(frozen=True, slots=True)
class GameOver:
    standings: tuple[tuple[int, ...], ...]
    audience: frozenset[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "game_over", "standings": [list(p) for p in self.standings]}
