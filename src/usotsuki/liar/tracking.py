"""Where cards seen face up in a doubt certainly are, from public facts only (L8, L9).

At a doubt the doubted play's cards are turned face up (L9); the whole field is shuffled
and put under the stock (L8); every draw takes cards from the top, in public. So anyone
can follow the stock as blocks: one block per flush, of known size, holding the cards
that doubt showed. While no draw has reached a block, its shown cards are certainly in
the stock. A draw that takes the whole block puts them certainly in the drawer's hand,
until that player plays again (then they may be on the field). A draw that takes only
part of a block takes a secretly shuffled part: its shown cards are then in no certain
place, and tracking drops them.

The same blocks carry private knowledge too: the cards each seat put on the field face
down and saw flushed with it (``Block.own``). A draw that takes such a block whole puts
them in the drawer's hand, which their player then knows (:data:`Secret`), until the
drawer plays again; the O7 gifts are known the same way to the seat that gave them.

Blocks count positions from the **bottom** of the stock (0 is the bottom card): draws
take from the top and so never move a block; only a flush, which puts cards under
everything, shifts them. Only blocks still holding known cards (shown or own) are kept, top first.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from usotsuki.cards import Card


class Put(Protocol):
    """Cards one seat put face down: a field play (``state.FieldPlay``) or :class:`OwnCards`."""

    @property
    def seat(self) -> int: ...

    @property
    def cards(self) -> tuple[Card, ...]: ...


class OwnCards(NamedTuple):
    """Cards ``seat`` put face down (a :class:`Put` that is not a field play)."""

    seat: int
    cards: tuple[Card, ...]


class Block(NamedTuple):
    """Stock positions ``lo <= i < hi`` (from the bottom) of one flush, untouched by draws;
    ``known`` are the cards a doubt showed among them."""

    lo: int
    hi: int
    known: tuple[Card, ...]
    # the plays flushed face down, each seat knowing its own cards: the field's plays
    # themselves, so a flush costs no per-card work (expanded only when a draw takes them)
    own: tuple[Put, ...] = ()


_block = tuple.__new__  # builds a Block without NamedTuple's keyword handling (hot path)
Blocks = tuple[Block, ...]
InHand = tuple[tuple[Card, int], ...]
"""(card, seat) pairs: shown cards certainly in that seat's hand."""
Secret = tuple[tuple[Card, int, int], ...]
"""(card, holder, knower): a card certainly in ``holder``'s hand, known to ``knower`` only
(it played the card face down, or gave it in an O7 exchange)."""


def flushed(blocks: Blocks, count: int, shown: tuple[Card, ...],
            own: tuple[Put, ...]) -> Blocks:
    """L8: ``count`` cards go under the stock, ``shown`` of them seen face up by all and
    those of the plays ``own`` the others, each known to its player."""
    new = (_block(Block, (0, count, shown, own)),) if shown or own else ()
    if not blocks:
        return new
    # a list comprehension: tuple(generator) is slower on CPython 3.11 (hot path)
    return (*[_block(Block, (b.lo + count, b.hi + count, b.known, b.own)) for b in blocks],
            *new)


def drawn(blocks: Blocks, in_hand: InHand, secret: Secret, seat: int, top: int,
          count: int) -> tuple[Blocks, InHand, Secret]:
    """``seat`` draws ``count`` cards from a stock of ``top`` cards (L6, L9)."""
    lowest = top - count
    while blocks and blocks[0].hi > lowest:
        block, blocks = blocks[0], blocks[1:]
        if block.lo >= lowest:  # the whole block: every card of it is now this seat's
            in_hand += tuple((c, seat) for c in block.known)
            if block.own:
                secret += tuple((c, seat, p.seat) for p in block.own if p.seat != seat
                                for c in p.cards)
        # else a shuffled part of it: its cards may be on either side (dropped)
    return blocks, in_hand, secret


def secret_played(secret: Secret, seat: int) -> Secret:
    """``seat`` plays: the cards others knew it held may now be on the field."""
    return tuple([e for e in secret if e[1] != seat])


def played(in_hand: InHand, seat: int) -> tuple[InHand, tuple[Card, ...]]:
    """``seat`` plays: its tracked cards may now be on the field. Returns the rest and the
    cards it certainly held just before the play."""
    kept = tuple([p for p in in_hand if p[1] != seat])
    return kept, tuple([c for c, s in in_hand if s == seat])


def places(blocks: Blocks, in_hand: InHand) -> tuple[tuple[Card, int | str], ...]:
    """Every tracked card and its certain place (``"stock"`` or a seat), by card."""
    found: list[tuple[Card, int | str]] = [(c, "stock") for b in blocks for c in b.known]
    found += in_hand
    return tuple(sorted(found, key=lambda p: p[0]))


def own_places(blocks: Blocks, secret: Secret, seat: int) -> tuple[tuple[Card, int | str], ...]:
    """The cards ``seat`` put face down or gave away whose place it knows for certain
    (``"stock"`` or a seat), by card: private to ``seat``."""
    found: list[tuple[Card, int | str]] = [(c, "stock") for b in blocks for p in b.own
                                           if p.seat == seat for c in p.cards]
    found += [(c, holder) for c, holder, knower in secret if knower == seat]
    return tuple(sorted(found, key=lambda p: p[0]))
