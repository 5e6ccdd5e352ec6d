"""The shell around the pure core for live play: deals, secret seeds and the match log.

A :class:`LiarMatch` holds the rules, the seed, the current state and, per game, the
hands as dealt, the stock and the actions taken: exactly what a Part 4 record needs
(``usotsuki.liar.record.write_record``), so a written record replays every state.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from usotsuki.cards import DECK, Card
from usotsuki.liar.actions import Action
from usotsuki.liar.events import Event
from usotsuki.liar.rules import LiarRules
from usotsuki.liar.state import Hand, LiarState, Seed, apply, dealt_events, new_game, next_game


def deal(rules: LiarRules, rng: random.Random) -> tuple[tuple[Hand, ...], tuple[Card, ...]]:
    """L3: shuffle the deck with ``rng`` and deal one card at a time from seat 0.

    Returns (hands, stock), the stock top first; with ``deals_all`` the stock is empty.
    """
    deck = list(DECK)
    rng.shuffle(deck)
    n = rules.players
    dealt = len(deck) if rules.deals_all else n * rules.hand_size
    hands = tuple(tuple(deck[seat:dealt:n]) for seat in range(n))
    return hands, tuple(deck[dealt:])


def new_seed() -> int:
    """A seed for a live game's flush shuffles, from a secure source (Part 4): keep it
    secret until the game ends, since whoever knows it can foresee the stock."""
    return secrets.randbits(64)


@dataclass(frozen=True, slots=True)
class GameLog:
    """One game of a record: its chance data and its actions (Part 4 ``games[i]``)."""

    hands: tuple[Hand, ...]  # as dealt, before any O7 exchange
    stock: tuple[Card, ...]
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class LiarMatch:
    """A live game or match: its state plus the log that a record is written from."""

    rules: LiarRules
    seed: Seed
    state: LiarState
    games: tuple[GameLog, ...]
    names: tuple[str, ...] | None = None

    @classmethod
    def start(cls, rules: LiarRules, hands: Sequence[Iterable[Card]], stock: Iterable[Card],
              seed: Seed, names: Sequence[str] | None = None
              ) -> tuple[LiarMatch, tuple[Event, ...]]:
        """The first game; returns the match and the private ``Dealt`` events."""
        state = new_game(rules, hands, stock, seed)
        match = cls(rules, seed, state, (GameLog(state.hands, state.stock),),
                    tuple(names) if names is not None else None)
        return match, dealt_events(state)

    def apply(self, action: Action) -> tuple[LiarMatch, tuple[Event, ...]]:
        """Apply a checked action (``IllegalAction`` if not legal) and log it."""
        step = apply(self.state, action)
        last = self.games[-1]
        log = GameLog(last.hands, last.stock, last.actions + (action,))
        return self._with(step.state, self.games[:-1] + (log,)), step.events

    def next_game(self, hands: Sequence[Iterable[Card]], stock: Iterable[Card]
                  ) -> tuple[LiarMatch, tuple[Event, ...]]:
        """O7: deal the next game of the match (hands before the exchange)."""
        step = next_game(self.state, hands, stock)
        dealt = tuple(tuple(DECK[c] for c in hand) for hand in hands)
        log = GameLog(dealt, step.state.stock)
        return self._with(step.state, self.games + (log,)), step.events

    def _with(self, state: LiarState, games: tuple[GameLog, ...]) -> LiarMatch:
        return LiarMatch(self.rules, self.seed, state, games, self.names)
