"""OpenSpiel games on top of the cores: ``python_usotsuki_bluff`` and ``python_usotsuki_liar``.

Importing this module registers both with ``pyspiel.register_game``; then
``pyspiel.load_game("python_usotsuki_bluff", {"round": True, "ranks": 4})`` and OpenSpiel's
algorithms (CFR, MCCFR, best response, exploitability, NFSP, R-NaD) run on them as on
any game. Every rule is the core's: these classes route actions to the core's ``apply``
(Bluff: ``push``, once the core's own legal list has said yes) and build strings and
tensors from the core's ``view`` (see docs/research.md).

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

import json
from dataclasses import replace
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import pyspiel

from usotsuki import bluff, liar
from usotsuki.bluff import BluffRules, BluffState
from usotsuki.bluff.deal import deck as bluff_deck
from usotsuki.cards import DECK, Card
from usotsuki.envs.bluff_codec import BluffCodec, bluff_key
from usotsuki.envs.deals import ascending_outcomes, place_returns, uniform_outcomes
from usotsuki.envs.liar_codec import NUM_ACTIONS, LiarCodec, action_text, decode, legal_ids
from usotsuki.liar import LiarRules, LiarState
from usotsuki.liar.rng import FlushRng
from usotsuki.liar.rules import HOUSE_RULES

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



# -- the Liar Game ----------------------------------------------------------------------

_LIAR_DEFAULTS: dict[str, Any] = {
    "players": 4,  # L1
    "hand_size": 9,  # L3
    "deal_all": False,  # L3
    "final_doubt": True,  # L10
    "turn_limit": 200,  # L11: OpenSpiel needs games of bounded length, so one is required
    **{name: False for name in HOUSE_RULES},  # O1-O7
    "games": 1,  # with classes (O7): the games of the match
}

_LIAR_TYPE = pyspiel.GameType(
    short_name="python_usotsuki_liar",
    long_name="Python usotsuki Liar Game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,  # the perfect-recall state is the string
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_LIAR_DEFAULTS,
)


class _NeedShuffle(Exception):
    """Raised from inside the core's flush (L8) when no order was chosen for it yet."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


class ChanceShuffle(FlushRng):
    """The flush generator of a state in the OpenSpiel game: instead of a seeded
    ``random.Random``, each flush takes the next order that chance nodes chose (a
    permutation of the field's cards, listed in play order); with none left it stops the
    transition (the core's states are immutable, so nothing changed) to ask for one."""

    __slots__ = ("orders",)

    def __init__(self, orders: tuple[tuple[int, ...], ...] = ()) -> None:
        super().__init__(None, 0, None, None)
        self.orders = orders

    def shuffled(self, items: list[Any]) -> FlushRng:
        if not self.orders:
            raise _NeedShuffle(len(items))
        order, rest = self.orders[0], self.orders[1:]
        items[:] = [items[i] for i in order]
        return ChanceShuffle(rest)

    def getstate(self) -> tuple[Any, ...]:
        return ("chance", self.orders)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChanceShuffle) and self.orders == other.orders

    def __hash__(self) -> int:
        return hash(self.orders)

    def __reduce__(self) -> tuple[Any, ...]:
        return (ChanceShuffle, (self.orders,))


class Committed(NamedTuple):
    """One completed player action of a history: the core's state it was taken in and
    the action. The links run from the newest back (``earlier``), shared by all states
    that continue the same history."""

    core: LiarState
    action: liar.Action
    earlier: Committed | None

    def __deepcopy__(self, memo: dict[int, Any]) -> Committed:
        return self


class LiarNode(NamedTuple):
    """An OpenSpiel Liar state's value. ``core`` is the core's state (None before the
    first game is dealt); ``dealt``: the deal in progress (hands, then the stock top
    first); ``selected``: cards put aside for a play or give; ``pending``: a player's
    action waiting for the order of the flush it causes (L8), built card by card in
    ``order``; ``done``: the places of the finished games of a match; ``past``: the
    completed player actions so far, newest first (perfect recall)."""

    core: LiarState | None
    dealt: tuple[tuple[Card, ...], ...]
    selected: tuple[Card, ...]
    pending: liar.Action | None
    shuffle_size: int
    order: tuple[int, ...]
    done: tuple[tuple[tuple[int, ...], ...], ...]
    player: int
    past: Committed | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> LiarNode:
        return self  # immutable all the way down


class LiarSetup:
    """A Liar Game's fixed data (options, codec), shared by all its states."""

    def __init__(self, p: dict[str, Any]) -> None:
        limit = int(p["turn_limit"])
        if limit < 1:
            raise ValueError(f"turn_limit must be at least 1 in OpenSpiel, not {limit} (L11)")
        # the core checks the options (L1, L3, L11, O1-O7) and says what is wrong
        self.rules = LiarRules(
            players=int(p["players"]), hand_size=int(p["hand_size"]),
            deal_all=bool(p["deal_all"]), final_doubt=bool(p["final_doubt"]),
            turn_limit=limit, **{name: bool(p[name]) for name in HOUSE_RULES})
        self.games = int(p["games"])
        if self.games < 1 or (self.games > 1 and not self.rules.classes):
            raise ValueError(f"games must be 1, or more with classes (O7), not {self.games}")
        self.players = self.rules.players
        self.hand_sizes = self.rules.hand_sizes()
        self.codec = LiarCodec(self.players, limit)
        self.root = self.node(None, ((),) * (self.players + 1), (), None, 0, (), ())

    def __deepcopy__(self, memo: dict[int, Any]) -> LiarSetup:
        return self

    def node(self, core: LiarState | None, dealt: tuple[tuple[Card, ...], ...],
             selected: tuple[Card, ...], pending: liar.Action | None, shuffle_size: int,
             order: tuple[int, ...], done: tuple[tuple[tuple[int, ...], ...], ...],
             past: Committed | None = None) -> LiarNode:
        if pending is not None or core is None or \
                (core.is_over and len(done) < self.games):
            player = _CHANCE
        elif core.is_over:
            player = _TERMINAL
        else:
            assert core.to_move is not None
            player = core.to_move
        return LiarNode(core, dealt, selected, pending, shuffle_size, order, done, player, past)

    def max_length(self) -> int:
        """Player decisions at most: each counted turn (L11) takes at most a hand's cards
        of selects (O1), and each game's gives (O7) at most 3 cards."""
        per_turn = 52 if self.rules.multi else 1
        return self.games * (self.rules.turn_limit or 1) * per_turn + 3 * self.games


class LiarGame(pyspiel.Game):  # type: ignore[misc]
    """The Liar Game (RULES.md Part 2) as an OpenSpiel game, every option a parameter."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = _params(_LIAR_DEFAULTS, params)
        self.setup = setup = LiarSetup(p)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=setup.players,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=setup.max_length())
        super().__init__(_LIAR_TYPE, info, p)

    def new_initial_state(self) -> LiarGameState:
        return LiarGameState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> LiarObserver:
        return LiarObserver(self.setup, iig_obs_type, params)


class LiarGameState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over the core's :class:`LiarState` (``core``)."""

    def __init__(self, game: LiarGame) -> None:
        super().__init__(game)
        self._setup = game.setup
        self._node = game.setup.root

    @property
    def core(self) -> LiarState | None:
        return self._node.core

    @property
    def selected(self) -> tuple[Card, ...]:
        return self._node.selected

    def current_player(self) -> int:
        return self._node.player

    def is_terminal(self) -> bool:
        return self._node.player == _TERMINAL

    # -- chance: deals and flush orders ----------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self._node
        assert node.player == _CHANCE
        if node.pending is not None:  # L8: which of the field's remaining cards comes next
            left = [i for i in range(node.shuffle_size) if i not in node.order]
            return uniform_outcomes(left)
        taken = {c for part in node.dealt for c in part}
        available = [c for c in DECK if c not in taken]
        seat = self._seat_to_deal()
        if seat is None:  # the stock, top first, any remaining card equally likely (L3)
            return uniform_outcomes(available)
        hand = node.dealt[seat]
        left_count = self._setup.hand_sizes[seat] - len(hand)
        return ascending_outcomes(available, hand[-1] if hand else -1, left_count)

    def _seat_to_deal(self) -> int | None:
        for seat, size in enumerate(self._setup.hand_sizes):
            if len(self._node.dealt[seat]) < size:
                return seat
        return None

    def _apply_action(self, action: int) -> None:
        node = self._node
        if node.player != _CHANCE:
            self._act(action)
        elif node.pending is not None:
            order = (*node.order, action)
            if len(order) + 1 < node.shuffle_size:
                self._node = node._replace(order=order)
            else:  # the last card's place is forced
                last = next(i for i in range(node.shuffle_size) if i not in order)
                self._node = node._replace(order=(*order, last))
                self._commit(node.pending)
        else:
            self._deal(DECK[action])

    def _deal(self, card: Card) -> None:
        node, setup = self._node, self._setup
        seat = self._seat_to_deal()
        part = seat if seat is not None else setup.players  # the stock comes last
        dealt = (*node.dealt[:part], (*node.dealt[part], card), *node.dealt[part + 1:])
        if sum(len(d) for d in dealt) < 52:
            self._node = node._replace(dealt=dealt)
            return
        hands, stock = dealt[:-1], dealt[-1]
        # the core checks the deal (L3, Part 4)
        if node.core is None:
            core = replace(liar.new_game(setup.rules, hands, stock), rng=ChanceShuffle())
        else:  # O7: the match's next game; its exchanges come first
            core = liar.next_game(node.core, hands, stock).state
        self._node = setup.node(core, ((),) * (setup.players + 1), (), None, 0, (),
                                node.done, node.past)

    def _act(self, action: int) -> None:
        node = self._node
        assert node.core is not None
        if action not in legal_ids(node.core, node.selected):
            raise ValueError(f"illegal action {action} ({action_text(action, node.selected)})")
        decoded = decode(action, node.selected)
        if isinstance(decoded, Card):  # select: a card put aside, the same player goes on
            self._node = node._replace(selected=(*node.selected, decoded))
            return
        self._commit(decoded)

    def _commit(self, action: liar.Action) -> None:
        """Apply a completed action; if it flushes (L8) and the flush's order is not
        chosen yet, wait for chance to choose it."""
        node, setup = self._node, self._setup
        assert node.core is not None
        core = node.core
        orders = (node.order,) if node.pending is not None else ()
        try:
            new = liar.apply(replace(core, rng=ChanceShuffle(orders)), action).state
        except _NeedShuffle as need:
            if need.size > 1:
                self._node = setup.node(core, node.dealt, (), action, need.size, (), node.done,
                                        node.past)
                return
            new = liar.apply(replace(core, rng=ChanceShuffle(((0,),))), action).state
        done = node.done
        if new.is_over:
            assert new.standings is not None
            done = (*done, new.standings)
        self._node = setup.node(new, node.dealt, (), None, 0, (), done,
                                Committed(core, action, node.past))

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        core = self._node.core
        return [] if core is None else legal_ids(core, self._node.selected)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if self._node.pending is not None:
                return f"flush order: card {action} of the field next"
            return f"deal {DECK[action]}"
        return action_text(action, self._node.selected)

    def returns(self) -> list[float]:
        """By place (shared places share), averaged over the games of a match."""
        n = self._setup.players
        done = self._node.done
        if self._node.player != _TERMINAL:
            return [0.0] * n
        per_game = [place_returns(standings, n) for standings in done]
        return [sum(r[seat] for r in per_game) / len(per_game) for seat in range(n)]

    def view(self, player: int) -> liar.LiarView | None:
        """What ``player`` knows (None before the first deal is complete)."""
        core = self._node.core
        return None if core is None else liar.view(core, player)

    def __str__(self) -> str:
        node = self._node
        if node.core is None:
            return f"dealing: {sum(len(d) for d in node.dealt)} cards"
        core = node.core
        hands = " | ".join(" ".join(str(c) for c in h) for h in core.hands)
        field = " ".join(f"{p.seat}:{len(p.cards)}x{p.rate}" for p in core.field)
        extra = f" pending {liar.format_action(node.pending)} order {list(node.order)}" \
            if node.pending is not None else ""
        selected = " ".join(str(c) for c in node.selected)
        return (f"game {core.game} turn {core.turns} hands {hands} stock {len(core.stock)} "
                f"field {field or '-'} selected {selected or '-'} to_move {core.to_move}"
                f"{extra}")


def _liar_view_text(view: liar.LiarView, private: bool, markov: bool) -> str:
    """A canonical text of a seat's view; ``private`` False leaves out what only the seat
    knows; ``markov`` leaves out the game's past (its doubts and the turn count)."""
    data = view.to_json()
    for name in ("doubts", "turns") if markov else ():
        data.pop(name)
    if not private:
        data["hand"] = None
        data["own_places"] = []
        for play in data["field"]:
            play["cards"] = None
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


class LiarObserver:
    """OpenSpiel's Python observer over :class:`LiarCodec`.

    The observation (``perfect_recall`` False) is Markov: the seat's view now, without the
    game's doubts and turn count, and the cards selected so far. The information state
    (``perfect_recall``) is the seat's whole observed history: its view at each completed
    player action of the match, oldest first, with the action when the seat took it, then
    its view now and the cards selected so far. Chance (deals, flush orders) shows only
    through the views that follow it, as it does at the table."""

    def __init__(self, setup: LiarSetup, iig_obs_type: Any,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        obs = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.codec = setup.codec
        self.history = bool(obs.perfect_recall)
        self.private = obs.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(self.codec.size, np.float32)
        self.dict: dict[str, Any] = {}
        for name, shape in self.codec.pieces:
            i = self.codec.offsets[name]
            self.dict[name] = self.tensor[i:i + int(np.prod(shape))].reshape(shape)

    def set_from(self, state: LiarGameState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0)
            return
        selected = state.selected if player == state.current_player() else ()
        self.codec.encode(view, self.tensor, selected, self.private)

    def string_from(self, state: LiarGameState, player: int) -> str:
        view = state.view(player)
        if view is None:
            return f"seat {player} waiting for the deal"
        selected = state.selected if player == state.current_player() else ()
        now = _liar_view_text(view, self.private, not self.history)
        now += " selected " + " ".join(str(c) for c in selected)
        if not self.history:
            return now
        lines: list[str] = []
        step = state._node.past
        while step is not None:
            line = _liar_view_text(liar.view(step.core, player), self.private, False)
            if self.private and step.core.to_move == player:
                line += " did " + liar.format_action(step.action)
            lines.append(line)
            step = step.earlier
        lines.reverse()
        lines.append(now)
        return "\n".join(lines)


pyspiel.register_game(_LIAR_TYPE, LiarGame)

__all__ = ["BluffGame", "BluffGameState", "BluffObserver", "ChanceShuffle", "LiarGame",
           "LiarGameState", "LiarObserver"]
