"""Making deals: the shell-side randomness of Bluff (B3). The rules never shuffle."""

from __future__ import annotations

import random

from usotsuki.bluff.state import BluffState, Hands
from usotsuki.cards import DECK


def deal_hands(state: BluffState, rng: random.Random) -> Hands:
    """B3: shuffle the whole deck and give each seat still in the game ``losses + 1`` cards."""
    sizes = [state.hand_size(seat) for seat in range(state.players)]
    cards = rng.sample(DECK, sum(sizes))
    hands = []
    start = 0
    for size in sizes:
        hands.append(tuple(sorted(cards[start:start + size])))
        start += size
    return tuple(hands)
