"""A game in progress for the PettingZoo and Gymnasium environments: the core's state,
dealt by a seeded ``random.Random`` (B3, L3; Liar flush shuffles from a seed it draws,
Part 4), with actions as the ids of :mod:`usotsuki.envs.bluff_codec` /
:mod:`usotsuki.envs.liar_codec`. Every rule is the core's; bots play through the registry."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from usotsuki import bluff, liar
from usotsuki.bluff import BluffRules, BluffState
from usotsuki.bluff.deal import deal_hands
from usotsuki.cards import Card
from usotsuki.envs import liar_codec
from usotsuki.envs.bluff_codec import BluffCodec
from usotsuki.envs.deals import place_returns
from usotsuki.envs.liar_codec import LiarCodec
from usotsuki.games import game as game_entry
from usotsuki.liar import LiarRules, LiarState
from usotsuki.liar.rules import HOUSE_RULES

Array = npt.NDArray[np.float32]


class Table(Protocol):
    """What an environment needs of a game, whichever it is."""

    game: str
    players: int
    num_actions: int
    observation_size: int

    def reset(self, rng: random.Random) -> None: ...
    @property
    def to_move(self) -> int | None: ...
    def legal_ids(self) -> list[int]: ...
    def apply(self, action_id: int) -> None: ...
    def observation(self, seat: int) -> Array: ...
    def view_json(self, seat: int) -> dict[str, Any]: ...
    def returns(self) -> list[float]: ...
    def bot_action(self, bot: Any, rng: random.Random) -> list[int]: ...


class BluffTable:
    """Bluff (RULES.md Part 1): options as :class:`BluffRules`, and ``drop_impossible``
    (see :meth:`BluffCodec.legal_ids`)."""

    game = "bluff"

    def __init__(self, players: int = 4, max_cards: int = 5, dealer: int = 0, ranks: int = 13,
                 drop_impossible: bool = False) -> None:
        self.rules = BluffRules(players=players, max_cards=max_cards, dealer=dealer,
                                ranks=ranks)
        self.players = players
        self.codec = BluffCodec(self.rules)
        self.num_actions = self.codec.num_actions
        self.observation_size = self.codec.observation_size
        self.drop_impossible = drop_impossible
        self.state: BluffState = bluff.new_game(self.rules)
        self._rng = random.Random(0)

    def reset(self, rng: random.Random) -> None:
        self._rng = rng
        self.state = self._deal(bluff.new_game(self.rules))

    def _deal(self, state: BluffState) -> BluffState:
        if state.needs_deal:  # B3: a fresh deal for every round
            state = bluff.start_round(state, deal_hands(state, self._rng)).state
        return state

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    def legal_ids(self) -> list[int]:
        return self.codec.legal_ids(self.state, self.drop_impossible)

    def apply(self, action_id: int) -> None:
        if action_id not in self.legal_ids():
            raise ValueError(f"illegal action id {action_id} for seat {self.state.to_move}")
        self.state = self._deal(bluff.apply(self.state, self.codec.action(action_id)).state)

    def observation(self, seat: int) -> Array:
        return self.codec.observation(bluff.view(self.state, seat))

    def view_json(self, seat: int) -> dict[str, Any]:
        return bluff.view(self.state, seat).to_json()

    def returns(self) -> list[float]:
        standings = self.state.standings
        return [0.0] * self.players if standings is None else place_returns(standings,
                                                                             self.players)

    def bot_action(self, bot: Any, rng: random.Random) -> list[int]:
        seat = self.state.to_move
        assert seat is not None
        action = bot.act(bluff.view(self.state, seat), bluff.legal_actions(self.state), rng)
        return [self.codec.action_id(action)]


class LiarTable:
    """The Liar Game (RULES.md Part 2): options as :class:`LiarRules`, and ``games`` for a
    match with classes (O7). Multi-card plays and gives are made card by card
    (:mod:`usotsuki.envs.liar_codec`)."""

    game = "liar"

    def __init__(self, players: int = 4, games: int = 1, **options: Any) -> None:
        unknown = set(options) - {"hand_size", "deal_all", "final_doubt", "turn_limit",
                                  *HOUSE_RULES}
        if unknown:
            raise ValueError(f"unknown Liar Game option(s) {sorted(unknown)}")
        self.rules = LiarRules(players=players, **options)
        if games < 1 or (games > 1 and not self.rules.classes):
            raise ValueError(f"games must be 1, or more with classes (O7), not {games}")
        self.games = games
        self.players = players
        self.codec = LiarCodec(players, self.rules.turn_limit)
        self.num_actions = liar_codec.NUM_ACTIONS
        self.observation_size = self.codec.size
        self.selected: tuple[Card, ...] = ()
        self.done: list[list[float]] = []
        self._rng = random.Random(0)
        self.state: LiarState = self._new(self._rng)

    def _new(self, rng: random.Random) -> LiarState:
        hands, stock = liar.deal(self.rules, rng)  # L3
        return liar.new_game(self.rules, hands, stock, rng.getrandbits(64))  # L8's seed

    def reset(self, rng: random.Random) -> None:
        self._rng = rng
        self.selected = ()
        self.done = []
        self.state = self._new(rng)

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    def legal_ids(self) -> list[int]:
        return liar_codec.legal_ids(self.state, self.selected)

    def apply(self, action_id: int) -> None:
        if action_id not in self.legal_ids():
            raise ValueError(f"illegal action id {action_id} for seat {self.state.to_move}")
        decoded = liar_codec.decode(action_id, self.selected)
        if isinstance(decoded, Card):
            self.selected = (*self.selected, decoded)
            return
        self.selected = ()
        self._apply(decoded)

    def _apply(self, action: liar.Action) -> None:
        state = liar.apply(self.state, action).state
        if state.is_over:
            assert state.standings is not None
            self.done.append(place_returns(state.standings, self.players))
            if len(self.done) < self.games:  # O7: the match's next game
                hands, stock = liar.deal(self.rules, self._rng)
                state = liar.next_game(state, hands, stock).state
        self.state = state

    def observation(self, seat: int) -> Array:
        selected = self.selected if seat == self.state.to_move else ()
        return self.codec.observation(liar.view(self.state, seat), selected)

    def view_json(self, seat: int) -> dict[str, Any]:
        data = liar.view(self.state, seat).to_json()
        if seat == self.state.to_move:
            data["selected"] = [str(c) for c in self.selected]
        return data

    def returns(self) -> list[float]:
        """By place, averaged over the games of a match (0 until the last game ends)."""
        if not self.state.is_over:
            return [0.0] * self.players
        return [sum(r[s] for r in self.done) / len(self.done) for s in range(self.players)]

    def bot_action(self, bot: Any, rng: random.Random) -> list[int]:
        """The bot's action as the ids that make it (its cards lowest first)."""
        seat = self.state.to_move
        assert seat is not None and not self.selected
        action = bot.act(liar.view(self.state, seat), liar.legal_summary(self.state), rng)
        return action_ids(action)


def action_ids(action: liar.Action) -> list[int]:
    """The ids that make a Liar Game action: selects, then the completing id."""
    if isinstance(action, liar.Play):
        cards = sorted(action.cards)
        return [liar_codec.SELECT_BASE + c for c in cards[:-1]] + \
            [liar_codec.PLAY_BASE + cards[-1] * 13 + action.rate]
    if isinstance(action, liar.Give):
        cards = sorted(action.cards)
        return [liar_codec.SELECT_BASE + c for c in cards[:-1]] + \
            [liar_codec.GIVE_BASE + cards[-1]]
    if isinstance(action, liar.Pass):
        return [liar_codec.PASS_ID]
    if isinstance(action, liar.Doubt):
        return [liar_codec.DOUBT_ID]
    return [liar_codec.ACCEPT_ID]


TABLES: dict[str, type[BluffTable] | type[LiarTable]] = {
    BluffTable.game: BluffTable, LiarTable.game: LiarTable}
"""The environments' table of each game of the registry (:mod:`usotsuki.games`)."""


def make_table(game: str, options: dict[str, Any]) -> BluffTable | LiarTable:
    """A table of ``game``. :raises ValueError: for an unknown game (the registry's)."""
    return TABLES[game_entry(game).name](**options)


def bots_for(game: str, names: Sequence[str]) -> list[Any]:
    """Bots of the registry's game by name (:meth:`usotsuki.games.GameEntry.make_bot`)."""
    entry = game_entry(game)
    return [entry.make_bot(name) for name in names]
