"""Cards and their notation, shared by both games (RULES.md Part 3).

A card is a small ``int`` subclass (``rank * 4 + suit``), interned in :data:`DECK`, so
cards hash, compare and sort at C speed while printing as ``"7H"``.

>>> parse_card("10s"), parse_card("j♠"), str(parse_card("ah"))
(TS, JS, 'AH')
"""

from __future__ import annotations

from collections.abc import Iterable

from usotsuki.core.errors import InvalidNotation

RANKS = "23456789TJQKA"
"""Rank letters, lowest first in Bluff's order (B7): rank index 0 is ``2``, 12 is ``A``."""
SUITS = "SHDC"
"""Suit letters in the order S H D C (used where RULES.md orders suits, e.g. L4, O7)."""

_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
# Part 3: input is case-insensitive. Fold ASCII only: str.upper() would also turn
# 'ſ' into 'S' and 'ı' into 'I', which no player means.
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class Card(int):
    """One of the 52 cards. Use :data:`DECK`, :func:`card` or :func:`parse_card` to get one."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """Rank index 0..12 (``2`` .. ``A``)."""
        return self >> 2

    @property
    def suit(self) -> int:
        """Suit index 0..3 (``S H D C``)."""
        return self & 3

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return _NAMES[self]


_NAMES = tuple(r + s for r in RANKS for s in SUITS)
DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))
"""All 52 cards in rank-then-suit order: ``2S 2H 2D 2C 3S ... AC``."""
_BY_NAME = {name: DECK[i] for i, name in enumerate(_NAMES)}


def card(rank: int, suit: int) -> Card:
    """The card of rank index ``rank`` (0..12) and suit index ``suit`` (0..3)."""
    return DECK[rank * 4 + suit]


def normalize_token(token: str) -> str:
    """Upper-case ASCII letters only (Part 3: input is case-insensitive)."""
    return token.translate(_ASCII_UPPER)


def parse_rank(token: str) -> int:
    """Parse a rank token (``2``..``9``, ``T`` or ``10``, ``J Q K A``) to its index 0..12.

    :raises InvalidNotation: naming the bad token.
    """
    text = normalize_token(token)
    if text == "10":
        text = "T"
    if len(text) != 1 or text not in RANKS:
        raise InvalidNotation(f"{token!r} is not a rank (2-9, T or 10, J, Q, K, A)")
    return RANKS.index(text)


def parse_suit(token: str) -> int:
    """Parse a suit token (``S H D C`` or ``♠ ♥ ♦ ♣``) to its index 0..3."""
    text = _SUIT_SYMBOLS.get(token, normalize_token(token))
    if len(text) != 1 or text not in SUITS:
        raise InvalidNotation(f"{token!r} is not a suit (S, H, D, C or ♠ ♥ ♦ ♣)")
    return SUITS.index(text)


def parse_card(token: str) -> Card:
    """Parse one card token: rank then suit, as ``7H``, ``10s`` or ``Q♥``.

    :raises InvalidNotation: naming the bad token.
    """
    if not isinstance(token, str):
        raise InvalidNotation(f"{token!r} is not a card (expected text such as '7H')")
    found = _BY_NAME.get(normalize_token(token))
    if found is not None:
        return found
    words = token.split()  # Part 3: whitespace around a token is no part of it
    if len(words) == 1 and words[0] != token:
        return parse_card(words[0])
    if len(token) >= 2:
        try:
            return card(parse_rank(token[:-1]), parse_suit(token[-1]))
        except InvalidNotation:
            pass
    raise InvalidNotation(f"{token!r} is not a card (rank then suit, such as 7H, TD, 10S, Q♥)")


def parse_cards(tokens: Iterable[str]) -> tuple[Card, ...]:
    """Parse several card tokens, each one card."""
    return tuple(parse_card(t) for t in tokens)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, separated by single spaces."""
    return " ".join(_NAMES[c] for c in cards)
