"""One interface over both games for the shells: server, tournaments, environments.

A session is an immutable game in progress plus everything its record needs. It has
two kinds of step, as OpenSpiel has: a **chance** step (:meth:`deal`, the data of which
is JSON so that a store can log it) and a player **action**. Its record is derived, never
kept twice: Bluff's state holds its rounds, the Liar Game's :class:`LiarMatch` its log.
The rules stay in the cores; this module only routes to them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, Self, TypeVar

from usotsuki import bluff, liar
from usotsuki.bluff.deal import deal_hands
from usotsuki.bluff.record import write_record as write_bluff_record
from usotsuki.cards import format_cards, parse_cards
from usotsuki.core.errors import IllegalAction, InvalidDeal
from usotsuki.core.events import Event
from usotsuki.core.game import Standings
from usotsuki.fairness import FairDeals, Fairness

ChanceSource = random.Random | FairDeals
"""Where a session's deals come from: a generator (reproducible play with a seed, or the
secure source), or a game's fairness key (docs/fairness.md), which derives each deal from
its round's or game's own stream."""

V_co = TypeVar("V_co", covariant=True)
A = TypeVar("A")
L_co = TypeVar("L_co", covariant=True)


class Session(Protocol[V_co, A, L_co]):
    """A game in progress with its record, over a view type, an action type and a
    ``legal`` type: Bluff ``Session[BluffView, bluff.Action, Sequence[bluff.Action]]``,
    the Liar Game ``Session[LiarView, liar.Action, LegalSummary | None]``."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...] | None: ...
    @property
    def to_move(self) -> int | None:
        """The seat to act, or None while a deal is due or once everything is over."""
    @property
    def chance_due(self) -> bool:
        """A deal (a Bluff round, the next game of a Liar match) must come next."""
    @property
    def is_over(self) -> bool: ...
    @property
    def standings(self) -> Standings | None: ...
    @property
    def fairness(self) -> Fairness | None:
        """The game's fairness object (docs/fairness.md), or None for a game dealt from a
        generator alone."""
    @property
    def winner(self) -> int | None:
        """Who won, once over: Bluff's last seat standing (B12), the Liar Game's first
        player out (L11; a match: its last game's); None if nobody did."""
    def draw_chance(self, source: ChanceSource) -> dict[str, Any]:
        """The JSON data of the next deal, drawn with a generator or derived from a
        fairness key."""
    def deal(self, chance: dict[str, Any]) -> tuple[Self, tuple[Event, ...]]: ...
    def with_fairness(self, fairness: Fairness) -> Self:
        """The session with its fairness object replaced (the contributions received,
        before the deal they key)."""
    def parse_action(self, text: str) -> A: ...
    def format_action(self, action: A) -> str: ...
    def apply(self, action: A) -> tuple[Self, tuple[Event, ...]]: ...
    def apply_text(self, text: str) -> tuple[Self, tuple[Event, ...], str]:
        """Parse ``text``, apply it, and give its canonical text (what a shell logs)."""
    def legal(self) -> L_co:
        """Bluff: the legal actions. Liar Game: its ``LegalSummary`` (plays are too many
        to list with O1; see ``usotsuki.core.game``)."""
    def view(self, seat: int | None) -> V_co: ...
    def record(self) -> dict[str, Any]:
        """The game's record (RULES.md Part 4), with its ``fairness`` object if it has one:
        the secret in it only once the game is over."""
    def random_action(self, rng: random.Random) -> A: ...


def _hands_json(hands: Any) -> list[list[str]]:
    return [format_cards(hand).split() for hand in hands]


def chance_source(session: Session[Any, Any, Any], rng: random.Random) -> ChanceSource:
    """What the session's next deal is drawn from: its fairness key when it has a known
    secret, else ``rng``."""
    fairness = session.fairness
    if fairness is not None and fairness.secret is not None:
        return FairDeals.of(fairness)
    return rng


def _with_fairness(record: dict[str, Any], fairness: Fairness | None, over: bool
                   ) -> dict[str, Any]:
    if fairness is not None:
        record["fairness"] = (fairness if over else fairness.unrevealed()).to_json()
    return record


@dataclass(frozen=True, slots=True)
class BluffSession:
    state: bluff.BluffState
    names: tuple[str, ...] | None = None
    game: str = "bluff"
    fairness: Fairness | None = None

    @classmethod
    def create(cls, rules: bluff.BluffRules, names: tuple[str, ...] | None = None,
               fairness: Fairness | None = None) -> BluffSession:
        return cls(bluff.new_game(rules), names, fairness=fairness)

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def to_move(self) -> int | None:
        return None if self.state.needs_deal else self.state.to_move

    @property
    def chance_due(self) -> bool:
        return self.state.needs_deal

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def standings(self) -> Standings | None:
        return self.state.standings

    @property
    def winner(self) -> int | None:
        standings = self.state.standings
        return None if standings is None else standings[0][0]

    def draw_chance(self, source: ChanceSource) -> dict[str, Any]:
        if isinstance(source, FairDeals):
            sizes = [self.state.hand_size(seat) for seat in range(self.players)]
            hands = source.bluff_hands(self.state.round, self.state.rules.ranks, sizes)
        else:
            hands = deal_hands(self.state, source)
        return {"hands": _hands_json(hands)}

    def deal(self, chance: dict[str, Any]) -> tuple[BluffSession, tuple[Event, ...]]:
        hands = [parse_cards(hand) for hand in chance["hands"]]
        step = bluff.start_round(self.state, hands)
        return replace(self, state=step.state), step.events

    def with_fairness(self, fairness: Fairness) -> BluffSession:
        return replace(self, fairness=fairness)

    def parse_action(self, text: str) -> bluff.Action:
        return bluff.parse_action(text)

    def format_action(self, action: bluff.Action) -> str:
        return bluff.format_action(action)

    def apply(self, action: bluff.Action) -> tuple[BluffSession, tuple[Event, ...]]:
        step = bluff.apply(self.state, action)
        return replace(self, state=step.state), step.events

    def apply_text(self, text: str) -> tuple[BluffSession, tuple[Event, ...], str]:
        action = self.parse_action(text)
        session, events = self.apply(action)
        return session, events, self.format_action(action)

    def legal(self) -> Sequence[bluff.Action]:
        return () if self.state.needs_deal else bluff.legal_actions(self.state)

    def view(self, seat: int | None) -> bluff.BluffView:
        return bluff.view(self.state, seat)

    def record(self) -> dict[str, Any]:
        return _with_fairness(write_bluff_record(self.state, self.names), self.fairness,
                              self.is_over)

    def random_action(self, rng: random.Random) -> bluff.Action:
        legal = self.legal()
        return legal[rng.randrange(len(legal))]


@dataclass(frozen=True, slots=True)
class LiarSession:
    """A Liar Game, or a match of ``games`` games with the class system (O7)."""

    match: liar.LiarMatch | None  # None until the first deal
    rules: liar.LiarRules
    seed: int | str
    games: int = 1
    names: tuple[str, ...] | None = None
    game: str = "liar"
    fairness: Fairness | None = None

    @classmethod
    def create(cls, rules: liar.LiarRules, seed: int | str, games: int = 1,
               names: tuple[str, ...] | None = None, fairness: Fairness | None = None
               ) -> LiarSession:
        """A match not yet dealt. A first deal drawn from a fairness key carries the flush
        seed the key derives (docs/fairness.md, 6), which then replaces ``seed``: the
        contributions may arrive after the session is made (:meth:`with_fairness`)."""
        if games < 1:
            raise IllegalAction("a match has at least one game")
        if games > 1 and not rules.classes:
            raise IllegalAction("a match of several games needs the class system (O7: "
                                "classes); without it each game is a record of its own")
        return cls(None, rules, seed, games, names, fairness=fairness)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def state(self) -> liar.LiarState | None:
        return None if self.match is None else self.match.state

    @property
    def to_move(self) -> int | None:
        return None if self.state is None else self.state.to_move

    @property
    def chance_due(self) -> bool:
        state = self.state
        if self.match is None:
            return True
        return state is not None and state.is_over and len(self.match.games) < self.games

    @property
    def is_over(self) -> bool:
        return self.match is not None and self.match.state.is_over and not self.chance_due

    @property
    def standings(self) -> Standings | None:
        return self.match.state.standings if self.is_over and self.match is not None else None

    @property
    def winner(self) -> int | None:
        state = self.state
        return None if state is None else state.winner

    def draw_chance(self, source: ChanceSource) -> dict[str, Any]:
        if isinstance(source, FairDeals):
            number = 0 if self.match is None else len(self.match.games)
            hands, stock = source.liar_deal(number, self.players, sum(self.rules.hand_sizes()))
            if self.match is None:
                return {"hands": _hands_json(hands), "stock": format_cards(stock).split(),
                        "seed": source.liar_seed()}
        else:
            hands, stock = liar.deal(self.rules, source)
        return {"hands": _hands_json(hands), "stock": format_cards(stock).split()}

    def deal(self, chance: dict[str, Any]) -> tuple[LiarSession, tuple[Event, ...]]:
        if not self.chance_due:
            raise InvalidDeal("no deal is due")
        hands = [parse_cards(hand) for hand in chance["hands"]]
        stock = parse_cards(chance["stock"])
        if self.match is None:
            seed = chance.get("seed", self.seed)  # a fair first deal's derived seed
            match, events = liar.LiarMatch.start(self.rules, hands, stock, seed, self.names)
            return replace(self, match=match, seed=seed), tuple(events)
        else:
            match, events = self.match.next_game(hands, stock)
        return replace(self, match=match), tuple(events)

    def with_fairness(self, fairness: Fairness) -> LiarSession:
        return replace(self, fairness=fairness)

    def _live(self) -> liar.LiarMatch:
        if self.match is None:
            raise IllegalAction("the game has not been dealt yet")
        return self.match

    def parse_action(self, text: str) -> liar.Action:
        return liar.parse_action(text)

    def format_action(self, action: liar.Action) -> str:
        return liar.format_action(action)

    def apply(self, action: liar.Action) -> tuple[LiarSession, tuple[Event, ...]]:
        match, events = self._live().apply(action)
        return replace(self, match=match), tuple(events)

    def apply_text(self, text: str) -> tuple[LiarSession, tuple[Event, ...], str]:
        action = self.parse_action(text)
        session, events = self.apply(action)
        return session, events, self.format_action(action)

    def legal(self) -> liar.LegalSummary | None:
        state = self.state
        return None if state is None else liar.legal_summary(state)

    def view(self, seat: int | None) -> liar.LiarView:
        state = self._live().state
        return liar.view(state, seat)

    def record(self) -> dict[str, Any]:
        return _with_fairness(liar.write_record(self._live()), self.fairness, self.is_over)

    def random_action(self, rng: random.Random) -> liar.Action:
        return liar.random_action(self._live().state, rng)


BluffSessionType = Session[bluff.BluffView, bluff.Action, Sequence[bluff.Action]]
LiarSessionType = Session[liar.LiarView, liar.Action, liar.LegalSummary | None]


def _conforms(b: BluffSession, lsession: LiarSession) -> tuple[BluffSessionType,
                                                                  LiarSessionType]:
    return b, lsession  # mypy checks that both sessions implement the protocol
