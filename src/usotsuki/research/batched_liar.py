"""N Liar Games in lockstep (the state in numpy arrays, each step's per-game work in the
Numba loops of :mod:`usotsuki.research.batched_liar_kernels`): the Liar Game's
counterpart of :class:`~usotsuki.research.batched.BatchedBluff`, with the same API
(:meth:`BatchedLiar.observe`, :meth:`BatchedLiar.legal_mask`, ``rewards``, ``done``,
``autoreset``).

Actions are the ids of :mod:`usotsuki.envs.liar_codec` (783 of them: a play's last card
with its rate ``13 * card + rate``, ``select`` ids putting the cards of a multi-card play
or an O7 give aside lowest first, a give's last card, then ``pass``, ``doubt``,
``accept``), and observations are its :class:`~usotsuki.envs.liar_codec.LiarCodec`
tensor of the seat to move's view (with the cards it selected so far) as counts: uint8
(wider with a turn limit above 255) where the tensor has ``count / d``, ``d`` in
:attr:`BatchedLiar.divisors` (:meth:`BatchedLiar.to_codec` divides, giving the tensor
value for value), a quarter of the memory a step writes as float32. So a policy trained
here runs on the Gymnasium and PettingZoo environments and back. A select is a step of
its own (one decision): the same seat moves next and no turn passes.

**Rules covered**, each from the core's own tables and functions (nothing re-derived):
L1-L11: the deal and ``deal_all`` (L3, ``LiarRules.hand_sizes``), the first player (L4,
the core's ``L4_ORDER``), plays, passes and draws (L6), all passed (L7), flushes under
the stock (L8; deals and flushes shuffled from a SplitMix64 stream seeded from the
engine's numpy generator, so a seed replays the same games: the core's seeded generator
is per game, Part 4), doubts (L9, ``CARD_RATE``; every card of the doubted play shown),
``final_doubt`` on or off (L10), standings by cards and ``turn_limit`` (L11); and every
house rule: **O1** ``multi`` (a lead of any count up to the whole hand, then the same
count as the current play), **O2** ``revolution``, **O3** ``eight_cut``, **O4**
``jack_back``, **O5** ``six_up`` and **O6** ``binding``, whose rates and flags come from
:func:`usotsuki.liar.legal.rates_above`, :func:`~usotsuki.liar.legal.cuts`,
:func:`~usotsuki.liar.legal.order_after` and :class:`~usotsuki.liar.legal.Order`; and
**O7** ``classes``, matches of ``games`` games: when a game ends the next is dealt at
once, classes and pairs from the core's :func:`~usotsuki.liar.state.class_order` and
:func:`~usotsuki.liar.state.exchange_pairs`, the lower players' gifts made (its order of
gifts), the higher players then to give as many back (select and give ids; gives are no
turns), after which L4 finds the first player; the match ends after its last game,
rewarded by place averaged over its games (as the environments reward it).

The public card tracking of the view (which cards shown in doubts are certainly in the
stock or in a hand; :mod:`usotsuki.liar.tracking`) and each seat's private tracking of
its own face-down cards are kept as 52-bit card sets
(:class:`~usotsuki.research.batched_liar_kernels.Sets`), as are hands and each seat's
field cards, so the mask, random ids and the observation visit the cards in them rather
than scan the deck. A flush puts its cards under the stock as one block, queued
(:class:`~usotsuki.research.batched_liar_kernels.Blocks`) with its first position
counted in flushed cards, so a draw tells at once which blocks it reached and whether
it took each whole, and visits only those.

``tests/research/test_batched_liar.py`` replays batched games and matches through the
scalar core, checking every step: mover, legal ids, observations, rewards and standings.
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from usotsuki.cards import DECK, Card
from usotsuki.envs import liar_codec
from usotsuki.envs.liar_codec import LiarCodec
from usotsuki.liar import LiarRules
from usotsuki.liar.actions import CARD_RATE, RATE_COUNT
from usotsuki.liar.legal import Order, cuts, order_after, rates_above
from usotsuki.liar.state import GIFT_ORDER, L4_ORDER, class_order, exchange_pairs
from usotsuki.research import batched_liar_kernels as kernels
from usotsuki.research.batched import as_actions, place_values

IntArray = npt.NDArray[np.int64]
SeatArray = npt.NDArray[np.int8]  # a seat (or place) per card: small, so fast to scan
BoolArray = npt.NDArray[np.bool_]
BitArray = npt.NDArray[np.uint64]
FloatArray = npt.NDArray[np.float64]
ObsArray = npt.NDArray[np.unsignedinteger]

CARDS = len(DECK)
LEAD = RATE_COUNT  # the "previous rate" of a play that leads


class RateTables(NamedTuple):
    """The core's play rules as tables the kernels index."""

    reversed_order: BoolArray  # [revolution, jack_back]: the order in force (O2, O4)
    allowed: BitArray  # [reversed, bound, previous rate or LEAD]: rates as sets (L6, O3, O6)
    cut: BoolArray  # [rate]: the rates that cut (O3)
    after: npt.NDArray[np.int8]  # [revolution, jack_back, bound, previous, count, rate]


def _rate_tables(rules: LiarRules) -> RateTables:
    """From the core: the order in force by its flags (:class:`Order`); the rates allowed
    on a current play, as a set (:func:`rates_above`; any rate on a lead, none after a
    cut); the
    rates that cut (:func:`cuts`); and the flags a play of ``count`` cards leaves (O2,
    O4-O6, :func:`order_after`) as ``revolution * 4 + jack_back * 2 + bound``."""
    flags = (False, True)
    reversed_order = np.array([[Order(rev, jb, False).reversed for jb in flags]
                               for rev in flags], dtype=bool)
    allowed = np.zeros((2, 2, RATE_COUNT + 1, RATE_COUNT), dtype=bool)
    cut = np.array([cuts(rules, r) for r in range(RATE_COUNT)], dtype=bool)
    for rev in flags:
        for bd in flags:
            allowed[int(rev), int(bd), LEAD] = True
            for prev in range(RATE_COUNT):
                if not cut[prev]:
                    allowed[int(rev), int(bd), prev, list(rates_above(prev, rev, bd))] = True
    # a play's count goes from 1 to the whole deck; without O1 only 1 is ever played
    counts = range(1, CARDS + 1) if rules.multi else (1,)
    after = np.zeros((2, 2, 2, RATE_COUNT + 1, CARDS + 1, RATE_COUNT), dtype=np.int8)
    for rev, jb, bd in product(flags, flags, flags):
        for prev in range(RATE_COUNT + 1):
            for count in counts:
                for r in range(RATE_COUNT):
                    rev2, jb2, bd2 = order_after(rules, rev, jb, bd,
                                                 None if prev == LEAD else prev, count, r)
                    after[int(rev), int(jb), int(bd), prev, count, r] = \
                        int(rev2) * 4 + int(jb2) * 2 + int(bd2)
    sets = (allowed * (1 << np.arange(RATE_COUNT))).sum(axis=-1).astype(np.uint64)
    return RateTables(reversed_order, sets, cut, after)


def _divisors(codec: LiarCodec, turn_limit: int | None) -> npt.NDArray[np.float32]:
    """What each value of the engine's observation is divided by to give the codec's
    tensor: 52 for the counts of cards and plays, the turn limit for the turns, 8 for the
    game's index, 1 for everything else (already 0 or 1)."""
    p, o = codec.players, codec.offsets
    out = np.ones(codec.size, dtype=np.float32)
    out[o["hand_sizes"]:o["hand_sizes"] + p] = CARDS
    out[o["stock"]] = CARDS
    out[o["current"] + p + RATE_COUNT] = CARDS
    out[o["field"]:o["field"] + 2] = CARDS
    out[o["turns"]] = turn_limit or 1
    out[o["turns"] + 1] = 8
    return out


class BatchedLiar:
    """``n`` Liar Games (or, with O7 and ``games`` above 1, matches of ``games`` games) of
    ``rules`` played in lockstep; see the module docstring.

    :raises ValueError: for ``n`` below 1, or ``games`` above 1 without O7 ``classes``.
    """

    def __init__(self, rules: LiarRules, n: int, seed: int | None = None,
                 autoreset: bool = False, games: int = 1) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        if games < 1 or (games > 1 and not rules.classes):
            raise ValueError(f"games must be 1, or more with classes (O7), not {games}")
        self.rules, self.n, self.autoreset, self.games = rules, n, autoreset, games
        self.players = p = rules.players
        self.reseed(seed)
        self.codec = LiarCodec(p, rules.turn_limit)
        self.observation_size = self.codec.size
        self.divisors = _divisors(self.codec, rules.turn_limit)
        # the smallest that holds every count: 52 cards, or the turns of a long turn limit
        self.observation_dtype = next(
            np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)
            if t is np.uint64 or self.divisors.max() <= np.iinfo(t).max)
        self.num_actions = liar_codec.NUM_ACTIONS
        self.tables = _rate_tables(rules)
        self.card_rate = np.array(CARD_RATE, dtype=np.int64)
        self.l4_order = np.array([int(c) for c in L4_ORDER], dtype=np.int64)
        self.l4_place = np.empty(CARDS, dtype=np.int64)
        self.l4_place[self.l4_order] = np.arange(CARDS)
        self.gift_order = np.argsort(np.array(GIFT_ORDER)).astype(np.int64)  # O7
        self.hand_sizes = np.array(rules.hand_sizes(), dtype=np.int64)
        self.dealt = int(self.hand_sizes.sum())  # L3: the rest is the stock
        self._places = place_values(p)
        self.field_at, self.stock_at = p, p + 1  # places of a card besides the hands
        self.decisions = 0
        self.games_finished = 0
        self.rewards = np.zeros((n, p), dtype=np.float64)
        self._rates: BitArray | None = None
        self._moves: BoolArray | None = None
        self._need = np.zeros(n, dtype=np.int64)
        self._offsets = np.array([self.codec.offsets[k] for k in (
            "hand", "selected", "hand_sizes", "stock", "current", "field", "own_field", "known",
            "own_places", "flags", "to_move", "legal", "turns")], dtype=np.int64)
        self._allocate()
        self.reset()

    def _allocate(self) -> None:
        n, p = self.n, self.players
        self.where = np.zeros((n, CARDS), dtype=np.int8)  # a seat, field_at or stock_at
        self.held = np.zeros((n, p), dtype=np.uint64)  # each hand as a set: bit c, card c
        self.size = np.zeros((n, p), dtype=np.int64)  # cards in each hand
        # the stock, a ring: position i from the bottom is ring[(bottom + i) % 52]
        self.ring = np.zeros((n, CARDS), dtype=np.int8)
        self.bottom = np.zeros(n, dtype=np.int64)
        self.stock = np.zeros(n, dtype=np.int64)
        self.played_by = np.full((n, CARDS), -1, dtype=np.int8)  # a field card's player
        self.cur_cards = np.zeros((n, CARDS), dtype=np.int8)  # the current play: cur_count cards
        self.field_list = np.zeros((n, CARDS), dtype=np.int8)  # the field: field_cards cards
        # O1: the cards selected for a play in progress (still in the hand), how many, the
        # highest (-1: none; selects go lowest first)
        self.selected = np.zeros((n, CARDS), dtype=bool)
        self.chosen = np.zeros(n, dtype=np.int64)
        self.last = np.full(n, -1, dtype=np.int64)
        self.cur_seat = np.full(n, -1, dtype=np.int64)  # the current play (L5), -1: none
        self.cur_rate = np.full(n, LEAD, dtype=np.int64)
        self.cur_count = np.zeros(n, dtype=np.int64)
        self.field_cards = np.zeros(n, dtype=np.int64)
        self.field_plays = np.zeros(n, dtype=np.int64)
        self.revolution = np.zeros(n, dtype=bool)  # O2 (lasts past flushes, not games)
        self.jack_back = np.zeros(n, dtype=bool)  # O4
        self.bound = np.zeros(n, dtype=bool)  # O6
        self.to_move = np.zeros(n, dtype=np.int64)
        self.turns = np.zeros(n, dtype=np.int64)
        self.game = np.zeros(n, dtype=np.int64)  # the game's index in its match (O7)
        self.match_returns = np.zeros((n, p), dtype=np.float64)  # its games' so far
        self.owed = kernels.Owed(
            giver=np.zeros((n, 2), dtype=np.int64), receiver=np.zeros((n, 2), dtype=np.int64),
            size=np.zeros((n, 2), dtype=np.int64), next=np.zeros(n, dtype=np.int64),
            total=np.zeros(n, dtype=np.int64))
        self.done = np.zeros(n, dtype=bool)
        self.winner = np.full(n, -1, dtype=np.int64)
        # tracking: the stock's flushed blocks, a queue (``blocks``: each block's first
        # position in flushed cards, counted from the start of the game, and its cards);
        # and as the views show it, as card sets (``sets``: shown cards in the stock or
        # certainly in a hand, each seat's own cards in the stock or drawn whole into a
        # hand)
        self.flushed = np.zeros(n, dtype=np.int64)
        self.blocks = kernels.Blocks(
            start=np.zeros((n, CARDS), dtype=np.int32),
            cards=np.zeros((n, CARDS), dtype=np.uint64),
            head=np.zeros(n, dtype=np.int64), queued=np.zeros(n, dtype=np.int64))
        self.sets = kernels.Sets(
            field_by=np.zeros((n, p), dtype=np.uint64),
            known_before=np.zeros(n, dtype=np.uint64),
            shown_stock=np.zeros(n, dtype=np.uint64), known=np.zeros((n, p), dtype=np.uint64),
            own_stock=np.zeros((n, p), dtype=np.uint64),
            own_held=np.zeros((n, p, p), dtype=np.uint64))

    # -- state ------------------------------------------------------------------------
    def reseed(self, seed: int | None) -> None:
        """Start the engine's generator again from ``seed``, and the kernels' shuffle
        stream (deals, flushes: SplitMix64) from it: the next deals and flushes follow."""
        self.rng = np.random.default_rng(seed)
        self.stream = self.rng.integers(0, 2**64, size=1, dtype=np.uint64)

    def reset(self, which: BoolArray | None = None) -> None:
        """New games (all, or where ``which``), each the first of its match: dealt (L3),
        the first player to move (L4)."""
        idx = np.arange(self.n) if which is None else np.flatnonzero(which)
        if idx.size == 0:
            return
        self.game[idx] = 0
        self.match_returns[idx] = 0.0
        self._deal(idx)

    def _deal(self, idx: IntArray) -> None:
        self._rates = None
        kernels.deal(idx, self.stream, self.hand_sizes, self.l4_place, LEAD, self.stock_at,
                     self.where, self.held, self.size, self.ring, self.bottom, self.stock,
                     self.to_move, self.played_by, self.selected, self.chosen,
                     self.last, self.cur_seat, self.cur_rate, self.cur_count,
                     self.field_cards, self.field_plays, self.revolution, self.jack_back,
                     self.bound, self.turns, self.done, self.winner, self.flushed,
                     self.blocks, self.sets, self.owed)

    def _next_games(self, idx: IntArray) -> None:
        """O7: the next game of the matches ``idx``, their games just over: dealt, then the
        class system's exchanges (classes and pairs from the core's
        :func:`~usotsuki.liar.state.class_order` and
        :func:`~usotsuki.liar.state.exchange_pairs` on the standings)."""
        pairs = np.full((idx.size, 2, 3), -1, dtype=np.int64)
        for k, g in enumerate(idx):
            standings = self.standings(int(g))
            assert standings is not None
            winner = int(self.winner[g])
            classes = class_order(standings, None if winner < 0 else winner, self.players)
            for j, pair in enumerate(exchange_pairs(classes)):
                pairs[k, j] = pair
        self.game[idx] += 1
        self._deal(idx)
        kernels.exchange(idx, pairs, self.gift_order, self.l4_order, self.where, self.held,
                         self.size, self.to_move, self.sets, self.owed)

    def stock_cards(self, i: int) -> list[Card]:
        """Game ``i``'s stock, top first (as the core holds it)."""
        k = int(self.stock[i])
        pos = (self.bottom[i] + np.arange(k - 1, -1, -1)) % CARDS
        return [DECK[int(c)] for c in self.ring[i, pos]]

    def selected_cards(self, i: int) -> list[Card]:
        """Game ``i``'s cards selected for a play in progress (O1), lowest first."""
        return [DECK[int(c)] for c in np.flatnonzero(self.selected[i])]

    def hands(self, i: int) -> list[list[Card]]:
        """Game ``i``'s hands, each by card index."""
        return [[DECK[int(c)] for c in np.flatnonzero(self.where[i] == s)]
                for s in range(self.players)]

    # -- legality ---------------------------------------------------------------------
    def _legal(self) -> tuple[BitArray, BoolArray]:
        """The rates the player to move may declare (n,), as sets (bit ``r`` for rate
        ``r``), and whether it may pass, doubt, accept and give (n, 4), kept until the next
        step or reset (with ``_need``, the count a play or give must have, 0 for any)."""
        if self._rates is None or self._moves is None:
            self._rates = np.empty(self.n, dtype=np.uint64)
            self._moves = np.empty((self.n, 4), dtype=bool)
            kernels.legal_moves(self.cur_seat, self.cur_count, self.size, self.to_move,
                                self.done, self.revolution, self.jack_back, self.bound,
                                self.cur_rate, self.tables.reversed_order,
                                self.tables.allowed, self.rules.multi, self.owed,
                                self._rates,
                                self._moves, self._need)
        return self._rates, self._moves

    def allowed_rates(self) -> BoolArray:
        """(n, 13): the rates the player to move may declare (none where it may not play:
        L10, O3, a bound field with no next rate, a hand smaller than the current play
        (O1), a give owed (O7), or a game over)."""
        sets = self._legal()[0]
        bits: BoolArray = (sets[:, None] >> np.arange(RATE_COUNT, dtype=np.uint64)) & 1 == 1
        return bits

    def _flags(self) -> tuple[BoolArray, BoolArray, BoolArray]:
        """Where the player to move may pass, doubt and accept (L6, L9, L10)."""
        moves = self._legal()[1]
        return moves[:, 0], moves[:, 1], moves[:, 2]

    def legal_mask(self) -> BoolArray:
        """(n, 783): the legal action ids of each game's player to move (none when done)."""
        rates, moves = self._legal()
        mask = np.empty((self.n, self.num_actions), dtype=bool)
        kernels.legal_mask(self.held, self.to_move, self.chosen, self.last, self._need,
                           rates, moves, liar_codec.SELECT_BASE, liar_codec.GIVE_BASE,
                           liar_codec.PASS_ID, mask)
        return mask

    def random_actions(self) -> IntArray:
        """A uniformly random legal id per game (-1 where done)."""
        rates, moves = self._legal()
        out = np.empty(self.n, dtype=np.int64)
        kernels.random_ids(self.held, self.to_move, self.chosen, self.last,
                           self._need, rates, moves, self.done, self.rng.random(self.n),
                           liar_codec.SELECT_BASE, liar_codec.GIVE_BASE, liar_codec.PASS_ID,
                           out)
        return out

    # -- acting -----------------------------------------------------------------------
    def step(self, actions: IntArray) -> BoolArray:
        """Apply one action id per game (ignored where done). Returns where a game (a
        match, with ``games`` above 1) ended; ``rewards`` holds each ended game's rewards
        by place (L11; a match's, its games' averaged, as the environments give them).
        The next game of a match starts at once (O7), its first player (or giver) to move.

        :raises ValueError: if an action is illegal in a game still in play (nothing changes).
        """
        actions = as_actions(actions, self.n)
        rates, moves = self._legal()
        ended = np.zeros(self.n, dtype=bool)
        bad, live, finished = kernels.step(
            actions, self.stream, rates, moves, self._need, liar_codec.SELECT_BASE,
            liar_codec.GIVE_BASE, liar_codec.PASS_ID, self.tables.after, self.card_rate,
            self.l4_order, self.owed, self._places,
            self.rules.final_doubt, self.rules.turn_limit or 0, self.field_at, self.stock_at,
            LEAD, self.where, self.held, self.size, self.ring, self.bottom, self.stock,
            self.played_by, self.field_list, self.cur_cards, self.selected, self.chosen,
            self.last, self.cur_seat, self.cur_rate, self.cur_count, self.field_cards,
            self.field_plays, self.revolution, self.jack_back, self.bound, self.to_move,
            self.turns, self.done, self.winner, self.flushed, self.blocks, self.sets,
            self.rewards, ended)
        if bad >= 0:
            raise ValueError(f"game {bad}: action {int(actions[bad])} is not legal")
        self._rates = None
        self.decisions += live
        self.games_finished += finished
        if finished and self.games > 1:
            self.match_returns[ended] += self.rewards[ended]
            going_on = ended & (self.game + 1 < self.games)
            if going_on.any():
                self._next_games(np.flatnonzero(going_on))
                ended &= ~going_on
                self.rewards[going_on] = 0.0
            self.rewards[ended] = self.match_returns[ended] / self.games
            finished = int(ended.sum())
        if self.autoreset and finished:
            self.reset(ended)
        return ended

    # -- observations ---------------------------------------------------------------
    def observe(self, seats: IntArray | None = None) -> ObsArray:
        """(n, observation_size) of ``observation_dtype``: each game's :class:`LiarCodec`
        tensor of the view of ``seats`` (default: the seat to move), seats relative to it,
        as counts: ``observe() / divisors`` is the codec's float32 tensor, value for
        value (:meth:`to_codec`)."""
        me = self.to_move if seats is None else np.asarray(seats, dtype=np.int64)
        rates, moves = self._legal()
        out = np.empty((self.n, self.observation_size), dtype=self.observation_dtype)
        kernels.observe(me, self.held, self.sets, self.size, self.stock, self.cur_seat,
                        self.cur_rate, self.cur_count, self.field_cards, self.field_plays,
                        self.selected, self.last, self._need, self.revolution, self.jack_back,
                        self.tables.reversed_order, self.bound, self.tables.cut,
                        self.to_move, self.done, self.turns, self.rules.turn_limit or 0,
                        self.game, rates, moves, self._offsets, out)
        return out

    def to_codec(self, obs: ObsArray) -> npt.NDArray[np.float32]:
        """Observations of :meth:`observe` as the codec's float32 tensors (the values the
        Gymnasium and PettingZoo environments give)."""
        return (obs / self.divisors).astype(np.float32, copy=False)

    def standings(self, i: int) -> tuple[tuple[int, ...], ...] | None:
        """L11 for game ``i``: the winner, then by cards in hand (shared places)."""
        if not self.done[i]:
            return None
        win = int(self.winner[i])
        places: list[tuple[int, ...]] = [(win,)] if win >= 0 else []
        others = [s for s in range(self.players) if s != win]
        for size in sorted({int(self.size[i, s]) for s in others}):
            places.append(tuple(s for s in others if self.size[i, s] == size))
        return tuple(places)
