"""OpenSpiel games on top of the cores: ``python_usotsuki_bluff`` and ``python_usotsuki_liar``.

Importing this module registers both with ``pyspiel.register_game``; then
``pyspiel.load_game("python_usotsuki_bluff", {"round": True, "ranks": 4})`` and OpenSpiel's
algorithms (CFR, MCCFR, best response, exploitability, NFSP, R-NaD) run on them as on
any game. Every rule is the core's: these classes route actions to ``GAME.apply`` and
build strings and tensors from ``GAME.view`` (see docs/research.md).

**Chance.** Everything random is a chance node, nothing is seeded:

- Bluff deals (B3): one node per card, each seat's hand lowest card first with the
  probabilities of :mod:`usotsuki.envs.deals` (a uniform set of cards, one history each).
- Liar Game deals (L3): the hands the same way, then the stock top first, each of the
  remaining cards equally likely (with O7, each game of the match is dealt so).
- Liar Game flush shuffles (L8): Part 4 fixes a record's shuffles by its seed, which the
  players never see; here the order the flushed cards go under the stock is chosen by
  chance, uniformly among all orders, one node per card, before the action that flushes
  is applied (the core itself flushes; it is handed that order as its generator's shuffle).

**Rewards** are by place, zero-sum, +1 for first to -1 for last in equal steps (shared
places share the mean); with ``round`` (Bluff), the round's loser gets -1 and the other
player +1.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import pyspiel

from usotsuki import bluff
from usotsuki.bluff import BluffRules, BluffState
from usotsuki.bluff.deal import deck as bluff_deck
from usotsuki.cards import Card
from usotsuki.envs.bluff_codec import BluffCodec, bluff_key
from usotsuki.envs.deals import ascending_outcomes, place_returns

_BLUFF_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "max_cards": 5,  # B2
    "dealer": 0,  # B4
    "ranks": 13,  # B13
    "round": False,  # one round as a two-player zero-sum game
    "hand0": 1,  # with round: seat 0's cards
    "hand1": 1,  # with round: seat 1's cards
    "drop_impossible": False,  # leave out calls naming more cards than are in play
}

_BLUFF_TYPE = pyspiel.GameType(
    short_name="python_usotsuki_bluff",
    long_name="Python usotsuki Bluff",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_BLUFF_DEFAULTS,
)


def _params(defaults: dict[str, Any], params: dict[str, Any] | None) -> dict[str, Any]:
    given = dict(params or {})
    unknown = set(given) - set(defaults)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)} (known: {sorted(defaults)})")
    return {**defaults, **given}


T = TypeVar("T")


class Shared(Generic[T]):
    """An immutable value a state shares with its clones: OpenSpiel clones a Python state
    by deep-copying its attributes, and the cores' states never change, so a clone may
    hold the same one (copying them would dominate CFR's time)."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared[T]:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Shared, (self.value,))


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


class BluffSetup:
    """A Bluff game's fixed data (options, codec, deck), shared by all its states."""

    def __init__(self, p: dict[str, Any]) -> None:
        self.single_round = bool(p["round"])
        if self.single_round:
            if p["players"] != 2:
                raise ValueError("round is a two-player game: players must be 2")
            self.hand_sizes: tuple[int, ...] = (int(p["hand0"]), int(p["hand1"]))
            if min(self.hand_sizes) < 1:
                raise ValueError(f"hand0 and hand1 must be at least 1, not {self.hand_sizes}")
            max_cards = max(self.hand_sizes)
        else:
            max_cards = int(p["max_cards"])
        # the core checks the options (B1, B2, B4, B13) and says what is wrong
        self.rules = BluffRules(players=int(p["players"]), max_cards=max_cards,
                                dealer=int(p["dealer"]), ranks=int(p["ranks"]))
        if self.single_round and sum(self.hand_sizes) > self.rules.deck_size:
            raise ValueError(f"hands of {self.hand_sizes} cards need more than the "
                             f"{self.rules.deck_size} cards of the deck")
        self.codec = BluffCodec(self.rules, rounds=0 if self.single_round else None)
        self.deck = tuple(bluff_deck(self.rules.ranks))
        self.drop_impossible = bool(p["drop_impossible"])
        start = bluff.new_game(self.rules)
        if self.single_round:  # B3: the losses that give the hand sizes asked for
            start = replace(start, losses=tuple(h - 1 for h in self.hand_sizes))
        self.root = self.node(start, ((),) * self.rules.players)

    def __deepcopy__(self, memo: dict[int, Any]) -> BluffSetup:
        return self

    def node(self, core: BluffState, dealt: tuple[tuple[Card, ...], ...]) -> BluffNode:
        """The node of a core state and a deal in progress, with whose turn it is."""
        if core.is_over or (self.single_round and core.results):
            player = _TERMINAL
        elif core.needs_deal:
            player = _CHANCE
        else:
            assert core.to_move is not None
            player = core.to_move
        return BluffNode(core, dealt, player)


class BluffNode(NamedTuple):
    """An OpenSpiel state's value: the core's state, the cards of a deal in progress
    (the core sees the round once every hand is full), and the player to act."""

    core: BluffState
    dealt: tuple[tuple[Card, ...], ...]
    player: int

    def __deepcopy__(self, memo: dict[int, Any]) -> BluffNode:
        return self  # immutable all the way down


class BluffGame(pyspiel.Game):  # type: ignore[misc]
    """Bluff (RULES.md Part 1) as an OpenSpiel game; ``round``: one round, two players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = _params(_BLUFF_DEFAULTS, params)
        self.setup = setup = BluffSetup(p)
        rounds = 1 if setup.single_round else setup.codec.rounds
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.codec.num_actions,
            max_chance_outcomes=setup.rules.deck_size,
            num_players=setup.rules.players,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=rounds * setup.codec.num_actions)
        super().__init__(_BLUFF_TYPE, info, p)

    def new_initial_state(self) -> BluffGameState:
        return BluffGameState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> BluffObserver:
        return BluffObserver(self.setup, iig_obs_type, params)


class BluffGameState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over the core's :class:`BluffState` (``core``)."""

    def __init__(self, game: BluffGame) -> None:
        super().__init__(game)
        self._setup = game.setup
        self._node = game.setup.root

    @property
    def core(self) -> BluffState:
        """The core's state (between rounds: waiting for the deal in progress)."""
        return self._node.core

    def current_player(self) -> int:
        return self._node.player

    def is_terminal(self) -> bool:
        return self._node.player == _TERMINAL

    def _seat_to_deal(self) -> int:
        core, dealt = self._node.core, self._node.dealt
        for seat in range(core.players):
            if len(dealt[seat]) < core.hand_size(seat):
                return seat
        raise AssertionError("no seat needs a card")

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return self._setup.codec.legal_ids(self._node.core, self._setup.drop_impossible)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._node.player == _CHANCE
        low = self._setup.codec.low
        seat = self._seat_to_deal()
        dealt = self._node.dealt
        taken = {c for hand in dealt for c in hand}
        available = [c for c in self._setup.deck if c not in taken]
        hand = dealt[seat]
        left = self._node.core.hand_size(seat) - len(hand)
        return [(c - low, p) for c, p in
                ascending_outcomes(available, hand[-1] if hand else -1, left)]

    def _apply_action(self, action: int) -> None:
        node, setup = self._node, self._setup
        if node.player == _CHANCE:
            self._deal(action)
            return
        # ids come from the core's legal actions; anything else is refused here, so the
        # core's unchecked push is safe
        if action not in setup.codec.legal_ids(node.core, setup.drop_impossible):
            raise ValueError(f"illegal action {action} "
                             f"({bluff.format_action(setup.codec.action(action))})")
        self._node = setup.node(bluff.push(node.core, setup.codec.action(action)), node.dealt)

    def _deal(self, outcome: int) -> None:
        setup, core = self._setup, self._node.core
        card = setup.deck[outcome]
        seat = self._seat_to_deal()
        dealt = self._node.dealt
        dealt = (*dealt[:seat], (*dealt[seat], card), *dealt[seat + 1:])
        if all(len(dealt[s]) == core.hand_size(s) for s in range(core.players)):
            # the core checks the deal (B3, B13)
            core = bluff.start_round(core, dealt).state
            dealt = ((),) * core.players
        self._node = setup.node(core, dealt)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {self._setup.deck[action]}"
        return bluff.format_action(self._setup.codec.action(action))

    def returns(self) -> list[float]:
        core = self._node.core
        n = core.players
        if self._setup.single_round and core.results:
            loser = core.results[0].loser
            return [-1.0 if seat == loser else 1.0 for seat in range(n)]
        standings = core.standings
        return [0.0] * n if standings is None else place_returns(standings, n)

    def view(self, player: int) -> bluff.BluffView:
        """What ``player`` knows (the core's view; cards being dealt are not seen yet)."""
        return bluff.view(self._node.core, player)

    def __str__(self) -> str:
        core = self._node.core
        hands = core.hands
        shown = " | ".join(" ".join(str(c) for c in h) for h in hands) if hands else "(deal)"
        calls = " ".join(f"{s}:{c}" for s, c in core.calls)
        return f"round {core.round} losses {list(core.losses)} hands {shown} " \
               f"calls {calls or '-'}"


class BluffObserver:
    """OpenSpiel's Python observer over :class:`BluffCodec`: ``tensor`` and ``dict`` of
    named pieces, and ``string_from`` (:func:`usotsuki.envs.bluff_codec.bluff_key`)."""

    def __init__(self, setup: BluffSetup, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        obs = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.codec = setup.codec
        self.history = bool(obs.perfect_recall)
        self.private = obs.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        pieces = list(self.codec.pieces)
        if self.history:
            pieces.append(self.codec.history_piece)
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        i = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[i:i + n].reshape(shape)
            i += n

    def set_from(self, state: BluffGameState, player: int) -> None:
        self.codec.encode(state.view(player), self.tensor, self.history, self.private)

    def string_from(self, state: BluffGameState, player: int) -> str:
        return bluff_key(state.view(player), self.history, self.private)


pyspiel.register_game(_BLUFF_TYPE, BluffGame)

__all__ = ["BluffGame", "BluffGameState", "BluffObserver"]
