"""Bluff's actions: the 326 calls and the challenge (RULES.md B6, B7, Part 3).

Calls are values whose canonical text needs no state (like python-chess's ``Move.uci()``).
:data:`ALL_CALLS` lists every call weakest first; a call's position in it is its
``index`` and its strength level (0..295) is its ``strength``: straight flushes with
the same top share one level (B7), so neither may follow the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from usotsuki.cards import RANKS, SUITS


class CallKind(IntEnum):
    """The seven call types, weakest first (B6)."""

    CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE = 4
    FULL_HOUSE = 5
    FOUR = 6
    STRAIGHT_FLUSH = 7

    @property
    def word(self) -> str:
        """The notation word of this type (Part 3)."""
        return _WORDS[self]


_WORDS = {
    CallKind.CARD: "card", CallKind.PAIR: "pair", CallKind.TWO_PAIR: "two-pair",
    CallKind.THREE: "three", CallKind.FULL_HOUSE: "full-house", CallKind.FOUR: "four",
    CallKind.STRAIGHT_FLUSH: "straight-flush",
}
LOWEST_STRAIGHT_TOP = RANKS.index("5")  # B6: 5 4 3 2 A is the lowest straight flush


@dataclass(frozen=True, slots=True, repr=False)
class Call:
    """A claim that a combination exists among all players' cards (B6).

    ``ranks`` are rank indices (0 = ``2`` .. 12 = ``A``): one rank, or for ``two-pair``
    the higher pair first, for ``full-house`` the three first. ``suit`` is set only for
    a straight flush, whose single rank is its top.
    """

    kind: CallKind
    ranks: tuple[int, ...]
    suit: int | None = None
    index: int = field(default=-1, compare=False, repr=False)
    strength: int = field(default=-1, compare=False, repr=False)

    def __str__(self) -> str:
        text = " ".join([self.kind.word, *(RANKS[r] for r in self.ranks)])
        return text if self.suit is None else f"{text} {SUITS[self.suit]}"

    def __repr__(self) -> str:
        return f"Call({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Challenge:
    """Challenge the call just made (B5, B9)."""

    def __str__(self) -> str:
        return "challenge"

    def __repr__(self) -> str:
        return "Challenge()"


Action = Call | Challenge
CHALLENGE = Challenge()


def _calls_weakest_first() -> list[tuple[CallKind, tuple[int, ...], int | None]]:
    single = range(13)
    calls: list[tuple[CallKind, tuple[int, ...], int | None]] = []
    calls += [(CallKind.CARD, (r,), None) for r in single]
    calls += [(CallKind.PAIR, (r,), None) for r in single]
    # B7: two pairs by the higher pair, then the lower one.
    calls += [(CallKind.TWO_PAIR, (hi, lo), None) for hi in single for lo in range(hi)]
    calls += [(CallKind.THREE, (r,), None) for r in single]
    # B7: full house by the three, then the pair.
    calls += [(CallKind.FULL_HOUSE, (three, pair), None)
              for three in single for pair in single if pair != three]
    calls += [(CallKind.FOUR, (r,), None) for r in single]
    calls += [(CallKind.STRAIGHT_FLUSH, (top,), suit)
              for top in range(LOWEST_STRAIGHT_TOP, 13) for suit in range(4)]
    return calls


def _build() -> tuple[tuple[Call, ...], tuple[int, ...]]:
    calls: list[Call] = []
    strength = -1
    previous: tuple[CallKind, tuple[int, ...]] | None = None
    for index, (kind, ranks, suit) in enumerate(_calls_weakest_first()):
        if (kind, ranks) != previous:  # B7: the suit of a straight flush does not count
            strength += 1
            previous = (kind, ranks)
        calls.append(Call(kind, ranks, suit, index, strength))
    # first_stronger[i]: the index of the first call strictly stronger than call i.
    first_stronger = []
    for call in calls:
        j = call.index + 1
        while j < len(calls) and calls[j].strength == call.strength:
            j += 1
        first_stronger.append(j)
    return tuple(calls), tuple(first_stronger)


ALL_CALLS, FIRST_STRONGER = _build()
"""Every call, weakest first; ``FIRST_STRONGER[i]`` is where the calls stronger than
``ALL_CALLS[i]`` begin (``len(ALL_CALLS)`` after a straight flush to the ace, B10)."""
STRENGTH_LEVELS = ALL_CALLS[-1].strength + 1
_CANONICAL = {(c.kind, c.ranks, c.suit): c for c in ALL_CALLS}


def make_call(kind: CallKind, ranks: tuple[int, ...], suit: int | None = None) -> Call:
    """The interned call of this type, ranks and suit (``ranks`` in canonical order).

    :raises KeyError: if no such call exists among the 326.
    """
    return _CANONICAL[(kind, ranks, suit)]


def canonical(call: Call) -> Call:
    """The interned copy of ``call`` (with its ``index`` and ``strength`` set)."""
    return call if call.index >= 0 else _CANONICAL[(call.kind, call.ranks, call.suit)]


def stronger_calls(current: Call | None) -> tuple[Call, ...]:
    """The calls strictly stronger than ``current`` (all 326 when there is none)."""
    if current is None:
        return ALL_CALLS
    return ALL_CALLS[FIRST_STRONGER[canonical(current).index]:]
