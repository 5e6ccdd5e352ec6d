"""Bluff's actions: the 326 calls and the challenge (RULES.md B6, B7, B13, Part 3).

Calls are values whose canonical text needs no state (like python-chess's ``Move.uci()``).
:data:`ALL_CALLS` lists every call weakest first; a call's position in it is its
``index`` and its strength level (0..295) is its ``strength``: straight flushes with
the same top share one level (B7), so neither may follow the other.
A short deck (B13) has the subset :func:`calls_for` gives, in the same order.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache

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


def stronger_calls(current: Call | None, ranks: int = 13) -> tuple[Call, ...]:
    """The calls of a ``ranks`` deck strictly stronger than ``current`` (all of the
    deck's calls when there is none; all 326 with the full deck)."""
    return calls_for(ranks).stronger(current)


def lowest_rank(ranks: int) -> int:
    """B13: the rank index of the lowest rank in a deck of the ``ranks`` highest ranks."""
    return 13 - ranks


def call_in_deck(call: Call, ranks: int) -> bool:
    """B13: a call exists only when every rank it names is in the deck; a straight flush
    when its five ranks are (so top ``5``, the A-low sequence, needs all 13)."""
    low = lowest_rank(ranks)
    if call.kind is CallKind.STRAIGHT_FLUSH:
        top = call.ranks[0]
        return top - 4 >= low if top > LOWEST_STRAIGHT_TOP else ranks == 13
    return all(r >= low for r in call.ranks)


@dataclass(frozen=True, slots=True, repr=False)
class CallSet:
    """The calls of one deck (B13), weakest first by B7.

    Calls keep their full-deck ``index`` and ``strength`` (B7 orders a subset the same
    way), so a state may store ``Call.index`` whatever the deck. ``first_stronger[i]``
    is the position in :attr:`calls` of the first call stronger than ``ALL_CALLS[i]``.
    """

    ranks: int
    calls: tuple[Call, ...]
    first_stronger: tuple[int, ...]
    exists: tuple[bool, ...]  # by full-deck index: is ``ALL_CALLS[i]`` a call of this deck

    @property
    def strongest(self) -> Call:
        """B10 (as B13 applies it): no call may follow this one."""
        return self.calls[-1]

    @property
    def levels(self) -> int:
        """How many strength levels the deck's calls make (B7)."""
        return len({c.strength for c in self.calls})

    def __contains__(self, call: object) -> bool:
        return isinstance(call, Call) and call.index >= 0 and self.exists[call.index]

    def __len__(self) -> int:
        return len(self.calls)

    def stronger(self, current: Call | None) -> tuple[Call, ...]:
        """The calls strictly stronger than ``current`` (all of them for none)."""
        if current is None:
            return self.calls
        return self.calls[self.first_stronger[canonical(current).index]:]

    def __repr__(self) -> str:
        return f"CallSet(ranks={self.ranks}, calls={len(self.calls)})"


@cache
def calls_for(ranks: int) -> CallSet:
    """The :class:`CallSet` of a deck of the ``ranks`` highest ranks (B13; 13: all 326).

    :raises ValueError: unless ``ranks`` is an integer from 2 to 13.
    """
    if not isinstance(ranks, int) or isinstance(ranks, bool) or not 2 <= ranks <= 13:
        raise ValueError(f"ranks must be an integer from 2 to 13, not {ranks!r} (B13)")
    calls = tuple(c for c in ALL_CALLS if call_in_deck(c, ranks))
    strengths = [c.strength for c in calls]
    first = tuple(bisect_right(strengths, c.strength) for c in ALL_CALLS)
    exists = tuple(call_in_deck(c, ranks) for c in ALL_CALLS)
    return CallSet(ranks, calls, first, exists)
