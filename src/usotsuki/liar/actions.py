"""Liar Game actions as small values, and the rates they declare (L2, L6, O7).

A rate is an ``int`` in the normal order of L2, lowest first: 0 is ``3``, 12 is ``2``.

>>> RATE_NAMES
'3456789TJQKA2'
>>> rate_of(parse_card("2S")), RATE_NAMES[rate_of(parse_card("3C"))]
(12, '3')
"""

from __future__ import annotations

from dataclasses import dataclass

from usotsuki.cards import DECK, Card, parse_card, parse_rank

RATE_NAMES = "3456789TJQKA2"
"""L2: the normal order, low to high. ``RATE_NAMES[rate]`` is a rate's letter."""
RATE_COUNT = len(RATE_NAMES)
RATES = tuple(range(RATE_COUNT))
SIX, EIGHT, JACK = RATE_NAMES.index("6"), RATE_NAMES.index("8"), RATE_NAMES.index("J")

CARD_RATE: tuple[int, ...] = tuple((card.rank + RATE_COUNT - 1) % RATE_COUNT for card in DECK)
"""A card's rate by card index: the 2 (Bluff rank 0) is the highest rate, 12."""


def rate_of(card: Card) -> int:
    """The rate (0..12, normal order) printed on ``card``."""
    return CARD_RATE[card]


def rate_name(rate: int) -> str:
    return RATE_NAMES[rate]


def parse_rate(token: str) -> int:
    """A declared rate (``2``-``9``, ``T`` or ``10``, ``J Q K A``) as 0..12, normal order.

    :raises InvalidNotation: naming the bad token.
    """
    return (parse_rank(token) + RATE_COUNT - 1) % RATE_COUNT


@dataclass(frozen=True, slots=True)
class Play:
    """Cards put face down, in the order named (the L8 shuffle lists them so), and a rate."""

    cards: tuple[Card, ...]
    rate: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Draw the top card of the stock, if any (L6)."""


@dataclass(frozen=True, slots=True)
class Doubt:
    """Turn the current play face up (L9)."""


@dataclass(frozen=True, slots=True)
class Accept:
    """Let a play that emptied a hand stand (L10)."""


@dataclass(frozen=True, slots=True)
class Give:
    """The higher player's cards in an O7 exchange."""

    cards: tuple[Card, ...]


Action = Play | Pass | Doubt | Accept | Give

PASS, DOUBT, ACCEPT = Pass(), Doubt(), Accept()


def play(text_cards: str, rate: str) -> Play:
    """A play from card and rate text, for tests and examples: ``play("3S 9C", "9")``."""
    return Play(tuple(parse_card(t) for t in text_cards.split()), parse_rate(rate))


def _higher(rate: int, reversed_order: bool) -> tuple[int, ...]:
    return tuple(r for r in RATES if (r < rate if reversed_order else r > rate))


HIGHER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_higher(rate, rev) for rate in RATES) for rev in (False, True))
"""L2: ``HIGHER[reversed][rate]``, the rates higher than ``rate`` (listed in normal order)."""

NEXT: tuple[tuple[int | None, ...], ...] = (
    tuple(r + 1 if r + 1 < RATE_COUNT else None for r in RATES),
    tuple(r - 1 if r > 0 else None for r in RATES),
)
"""O6: ``NEXT[reversed][rate]``, the rate just above ``rate``, or None at the top."""
