"""The shell around the pure core for live play: deals, secret seeds and the match log.

A :class:`LiarMatch` holds the rules, the seed, the current state and, per game, the
hands as dealt, the stock and the actions taken: exactly what a Part 4 record needs
(``usotsuki.liar.record.write_record``), so a written record replays every state.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from usotsuki.cards import DECK, Card
from usotsuki.core.events import Event
from usotsuki.liar.actions import Action
from usotsuki.liar.dealing import deal_cards
from usotsuki.liar.rules import LiarRules
from usotsuki.liar.state import Hand, LiarState, Seed, apply, dealt_events, new_game, next_game


def deal(rules: LiarRules, rng: random.Random) -> tuple[tuple[Hand, ...], tuple[Card, ...]]:
    """L3: shuffle the deck with ``rng`` and deal one card at a time from seat 0.

    Returns (hands, stock), the stock top first; with ``deals_all`` the stock is empty.
    (``usotsuki.liar.dealing``, compiled with the cores.)
    """
    return deal_cards(rules, rng)


def new_seed() -> int:
    """A seed for a live game's flush shuffles, from a secure source (Part 4): keep it
    secret until the game ends, since whoever knows it can foresee the stock."""
    return secrets.randbits(64)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ActionLog:
    """A persistent list of actions: appending is O(1) and shares every earlier entry
    (a cons list), so a match of 40k actions costs 40k small objects, not 40k copies.
    ``tuple(log)`` lists the actions oldest first."""

    last: Action | None = None
    before: ActionLog | None = None
    size: int = 0

    def append(self, action: Action) -> ActionLog:
        return ActionLog(action, self, self.size + 1)

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Action]:
        newest_first: list[Action] = []
        node: ActionLog | None = self
        while node is not None and node.size:
            assert node.last is not None
            newest_first.append(node.last)
            node = node.before
        return reversed(newest_first)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ActionLog):
            return NotImplemented
        return self is other or (self.size == other.size and tuple(self) == tuple(other))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"ActionLog({self.size} actions)"


EMPTY_LOG = ActionLog()


@dataclass(frozen=True, slots=True)
class GameLog:
    """One game of a record: its chance data and its actions (Part 4 ``games[i]``)."""

    hands: tuple[Hand, ...]  # as dealt, before any O7 exchange
    stock: tuple[Card, ...]
    log: ActionLog = EMPTY_LOG

    @property
    def actions(self) -> tuple[Action, ...]:
        """The game's actions so far, oldest first (built on demand: O(actions))."""
        return tuple(self.log)


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
        """Apply a checked action (``IllegalAction`` if not legal) and log it: O(1) in the
        length of the log (the games before this one are shared, not copied)."""
        step = apply(self.state, action)
        last = self.games[-1]
        log = GameLog(last.hands, last.stock, last.log.append(action))
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
