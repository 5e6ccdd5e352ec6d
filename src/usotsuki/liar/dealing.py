"""L3, the deal: the shuffled deck dealt one card at a time from seat 0.

Compiled with the cores: a random Liar Game spends a tenth of its time in
deals. ``usotsuki.liar.match.deal`` is the public name.
"""

from __future__ import annotations

import random

from usotsuki.cards import DECK, Card
from usotsuki.core.draws import shuffle
from usotsuki.liar.rules import LiarRules


def deal_cards(rules: LiarRules, rng: random.Random
               ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """L3: shuffle the deck with ``rng`` (exactly ``rng.shuffle``) and deal one card at a
    time from seat 0. Returns (hands, stock), the stock top first; with ``deals_all`` the
    stock is empty."""
    deck = list(DECK)
    shuffle(rng, deck)
    n = rules.players
    dealt = len(deck) if rules.deals_all else n * rules.hand_size
    return tuple([tuple(deck[seat:dealt:n]) for seat in range(n)]), tuple(deck[dealt:])
