"""Helpers for the Liar Game tests: deals written as text, actions as text."""

from __future__ import annotations

import random
from typing import Any

from usotsuki.cards import DECK, Card, parse_card
from usotsuki.liar import LiarRules, LiarState, apply, new_game, parse_action
from usotsuki.liar.events import Event
from usotsuki.liar.match import deal


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def names(hand: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in hand]


def start(*hands: str, stock: str = "", seed: int | str = 7, **options: Any) -> LiarState:
    """A game from written hands; the stock is ``stock`` on top, then every card left over
    in deck order (2S 2H ... AC)."""
    dealt = [cards(h) for h in hands]
    top = cards(stock)
    used = {c for hand in dealt for c in hand} | set(top)
    rest = [c for c in DECK if c not in used]
    if not options.get("deal_all"):
        options.setdefault("hand_size", len(dealt[0]))
    rules = LiarRules(players=len(hands), **options)
    return new_game(rules, dealt, [*top, *rest], seed)


def run(state: LiarState, *actions: str) -> LiarState:
    for text in actions:
        state = apply(state, parse_action(text)).state
    return state


def run_events(state: LiarState, text: str) -> tuple[LiarState, tuple[Event, ...]]:
    step = apply(state, parse_action(text))
    return step.state, step.events


def cards_conserved(state: LiarState) -> bool:
    """All 52 cards are in exactly one of hands, stock and field."""
    every = [c for hand in state.hands for c in hand] + list(state.stock)
    every += [c for play in state.field for c in play.cards]
    return len(every) == len(DECK) and set(every) == set(DECK)


def random_start(rules: LiarRules, rng: random.Random) -> LiarState:
    hands, stock = deal(rules, rng)
    return new_game(rules, hands, stock, rng.getrandbits(32))
