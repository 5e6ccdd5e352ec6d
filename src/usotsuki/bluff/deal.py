"""Making deals: the shell-side randomness of Bluff (B3). The rules never shuffle."""

from __future__ import annotations

import random

from usotsuki.bluff.state import BluffState, Hands
from usotsuki.cards import DECK, Card


def deck(ranks: int = 13) -> tuple[Card, ...]:
    """B13: the cards of a deck of the ``ranks`` highest ranks, lowest first."""
    return DECK[4 * (13 - ranks):]


def deal_hands(state: BluffState, rng: random.Random) -> Hands:
    """B3: shuffle the whole deck and give each seat still in the game ``losses + 1`` cards.

    B13: the deck is the four suits of the ``ranks`` highest ranks (all 52 by default).
    """
    sizes = [state.hand_size(seat) for seat in range(state.players)]
    cards = rng.sample(deck(state.rules.ranks), sum(sizes))
    hands = []
    start = 0
    for size in sizes:
        hands.append(tuple(sorted(cards[start:start + size])))
        start += size
    return tuple(hands)
