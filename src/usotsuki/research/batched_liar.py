"""N Liar Games in lockstep, with numpy: the Liar Game's counterpart of
:class:`~usotsuki.research.batched.BatchedBluff`, with the same learner's API
(:meth:`BatchedLiar.observe`, :meth:`BatchedLiar.legal_mask`, ``rewards``, ``done``,
``autoreset``).

Actions are the ids of :mod:`usotsuki.envs.liar_codec` (783 of them; a single-card play
is ``13 * card + rate``, then ``pass``, ``doubt``, ``accept``), and observations are its
:class:`~usotsuki.envs.liar_codec.LiarCodec` tensor of the seat to move's view, so a
policy trained here runs on the Gymnasium and PettingZoo environments and back.

**Rules covered**, each from the core's own tables and functions (nothing re-derived):
L1-L11 with single-card plays: the deal and ``deal_all`` (L3, ``LiarRules.hand_sizes``),
the first player (L4, the core's ``L4_ORDER``), plays, passes and draws (L6), all passed
(L7), flushes under the stock (L8, shuffled with numpy: the core's seeded generator is
per game, Part 4), doubts (L9, ``CARD_RATE``), ``final_doubt`` on or off (L10),
standings by cards and ``turn_limit`` (L11); and the house rules **O3** ``eight_cut``,
**O4** ``jack_back``, **O5** ``six_up`` and **O6** ``binding``, whose rates and flags come
from :func:`usotsuki.liar.legal.rates_above`, :func:`~usotsuki.liar.legal.cuts` and
:func:`~usotsuki.liar.legal.order_after`. Not covered (refused with ``ValueError``):
**O1** ``multi`` (and so O2 ``revolution``, which needs it) and **O7** ``classes``.

The public card tracking of the view (which cards shown in doubts are certainly in the
stock or in a hand; :mod:`usotsuki.liar.tracking`) and each seat's private tracking of
its own face-down cards are kept per card: a flush puts its cards in one block of the
stock, known by the cumulative count of flushed cards before and after it, so a draw
that reaches the block tells at once whether it took it whole.

``tests/research/test_batched_liar.py`` replays batched games through the scalar core,
checking every step: mover, legal ids, observations, rewards and standings.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from usotsuki.cards import DECK, Card
from usotsuki.envs import liar_codec
from usotsuki.envs.deals import place_returns
from usotsuki.envs.liar_codec import LiarCodec
from usotsuki.liar import LiarRules
from usotsuki.liar.actions import CARD_RATE, RATE_COUNT
from usotsuki.liar.legal import cuts, order_after, rates_above
from usotsuki.liar.state import L4_ORDER

IntArray = npt.NDArray[np.int64]
SeatArray = npt.NDArray[np.int8]  # a seat (or place) per card: small, so fast to scan
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
ObsArray = npt.NDArray[np.float32]

CARDS = len(DECK)
LEAD = RATE_COUNT  # the "previous rate" of a play that leads
UNSUPPORTED = ("multi", "revolution", "classes")


def _rate_tables(rules: LiarRules) -> tuple[BoolArray, BoolArray, IntArray]:
    """From the core: the rates allowed on a current play (O3, L6, O6), by
    ``[jack_back, bound, rate]`` (``rate`` LEAD for a lead: any rate); the rates that cut
    (O3); and the flags a play leaves (O4-O6), by ``[jack_back, bound, previous, rate]``
    as ``jack_back * 2 + bound``. Without O1/O2 the revolution stays off, so the order in
    force is reversed exactly under a J-back."""
    allowed = np.zeros((2, 2, RATE_COUNT + 1, RATE_COUNT), dtype=bool)
    after = np.zeros((2, 2, RATE_COUNT + 1, RATE_COUNT), dtype=np.int64)
    cut = np.array([cuts(rules, r) for r in range(RATE_COUNT)], dtype=bool)
    for jb in (0, 1):
        for bd in (0, 1):
            allowed[jb, bd, LEAD] = True
            for prev in range(RATE_COUNT + 1):
                if prev < LEAD and not cut[prev]:
                    allowed[jb, bd, prev, list(rates_above(prev, bool(jb), bool(bd)))] = True
                for r in range(RATE_COUNT):
                    _, j2, b2 = order_after(rules, False, bool(jb), bool(bd),
                                            None if prev == LEAD else prev, 1, r)
                    after[jb, bd, prev, r] = int(j2) * 2 + int(b2)
    return allowed, cut, after


class BatchedLiar:
    """``n`` Liar Games of ``rules`` played in lockstep; see the module docstring.

    :raises ValueError: for rules with an option the engine does not cover (O1, O2, O7).
    """

    def __init__(self, rules: LiarRules, n: int, seed: int | None = None,
                 autoreset: bool = False) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        unsupported = [name for name in UNSUPPORTED if getattr(rules, name)]
        if unsupported:
            raise ValueError(f"the batched Liar Game does not cover {', '.join(unsupported)} "
                             "(O1, O2, O7): use the core or the environments")
        self.rules, self.n, self.autoreset = rules, n, autoreset
        self.players = p = rules.players
        self.rng = np.random.default_rng(seed)
        self.codec = LiarCodec(p, rules.turn_limit)
        self.observation_size = self.codec.size
        self.num_actions = liar_codec.NUM_ACTIONS
        self.allowed, self.cut, self.after = _rate_tables(rules)
        self.card_rate = np.array(CARD_RATE, dtype=np.int64)
        self.l4_place = np.empty(CARDS, dtype=np.int64)
        self.l4_place[[int(c) for c in L4_ORDER]] = np.arange(CARDS)
        self.hand_sizes = np.array(rules.hand_sizes(), dtype=np.int64)
        self.dealt = int(self.hand_sizes.sum())  # L3: the rest is the stock
        self._places = np.array(place_returns([(s,) for s in range(p)], p))
        self.field_at, self.stock_at = p, p + 1  # places of a card besides the hands
        self.decisions = 0
        self.games_finished = 0
        self.rewards = np.zeros((n, p), dtype=np.float64)
        self._rates: BoolArray | None = None
        self._allocate()
        self.reset()

    def _allocate(self) -> None:
        n, p = self.n, self.players
        self.where = np.zeros((n, CARDS), dtype=np.int8)  # a seat, field_at or stock_at
        self.size = np.zeros((n, p), dtype=np.int64)  # cards in each hand
        # the stock, a ring: position i from the bottom is ring[(bottom + i) % 52]
        self.ring = np.zeros((n, CARDS), dtype=np.int8)
        self.bottom = np.zeros(n, dtype=np.int64)
        self.stock = np.zeros(n, dtype=np.int64)
        self.played_by = np.full((n, CARDS), -1, dtype=np.int8)  # a field card's player
        self.cur_seat = np.full(n, -1, dtype=np.int64)  # the current play (L5), -1: none
        self.cur_card = np.zeros(n, dtype=np.int64)
        self.cur_rate = np.full(n, LEAD, dtype=np.int64)
        self.field_cards = np.zeros(n, dtype=np.int64)
        self.jack_back = np.zeros(n, dtype=bool)  # O4
        self.bound = np.zeros(n, dtype=bool)  # O6
        self.to_move = np.zeros(n, dtype=np.int64)
        self.turns = np.zeros(n, dtype=np.int64)
        self.done = np.zeros(n, dtype=bool)
        self.winner = np.full(n, -1, dtype=np.int64)
        # tracking: each flushed card's block (cumulative flushed count before and after
        # its flush; -1 while untracked), shown in a doubt (public) or put face down by
        # ``own_by`` (private to that seat); shown cards certainly in a hand
        # (``known_hand``), those the current play's player held before it
        # (``known_before``), and own cards drawn whole into a hand (``secret_holder``)
        self.flushed = np.zeros(n, dtype=np.int64)
        self.block_lo = np.full((n, CARDS), -1, dtype=np.int32)
        self.block_hi = np.full((n, CARDS), -1, dtype=np.int32)
        # the lowest block_lo tracked (the topmost block), -1 for none: a draw that does
        # not reach it changes no tracking
        self.top_block = np.full(n, -1, dtype=np.int64)
        self.shown = np.zeros((n, CARDS), dtype=bool)
        self.own_by = np.full((n, CARDS), -1, dtype=np.int8)
        self.known_hand = np.full((n, CARDS), -1, dtype=np.int8)
        self.known_before = np.zeros((n, CARDS), dtype=bool)
        self.secret_holder = np.full((n, CARDS), -1, dtype=np.int8)

    # -- state ------------------------------------------------------------------------
    def reset(self, which: BoolArray | None = None) -> None:
        """New games (all, or where ``which``): dealt (L3), the first player to move (L4)."""
        idx = np.arange(self.n) if which is None else np.flatnonzero(which)
        if idx.size == 0:
            return
        self._rates = None
        self.cur_seat[idx] = -1
        self.cur_rate[idx] = LEAD
        self.field_cards[idx] = 0
        self.jack_back[idx] = False
        self.bound[idx] = False
        self.turns[idx] = 0
        self.done[idx] = False
        self.winner[idx] = -1
        self.played_by[idx] = -1
        self.flushed[idx] = 0
        self.block_lo[idx] = -1
        self.block_hi[idx] = -1
        self.top_block[idx] = -1
        self.shown[idx] = False
        self.own_by[idx] = -1
        self.known_hand[idx] = -1
        self.known_before[idx] = False
        self.secret_holder[idx] = -1
        # L3: a shuffled deck dealt one card at a time from seat 0; the rest, top first,
        # is the stock (its last card at the bottom, position 0)
        deck = np.argsort(self.rng.random((idx.size, CARDS)), axis=1)
        p, dealt = self.players, self.dealt
        seats = np.full(CARDS, self.stock_at, dtype=np.int8)
        seats[:dealt] = np.arange(dealt) % p
        self.where[idx[:, None], deck] = seats
        self.size[idx] = self.hand_sizes
        rest = CARDS - dealt
        self.ring[idx, :rest] = deck[:, ::-1][:, :rest]
        self.bottom[idx] = 0
        self.stock[idx] = rest
        # L4: the holder of the first card of L4_ORDER that anyone holds
        held = self.where[idx] < p
        first = np.argmin(np.where(held, self.l4_place, CARDS), axis=1)
        self.to_move[idx] = self.where[idx, first]

    def stock_cards(self, i: int) -> list[Card]:
        """Game ``i``'s stock, top first (as the core holds it)."""
        k = int(self.stock[i])
        pos = (self.bottom[i] + np.arange(k - 1, -1, -1)) % CARDS
        return [DECK[int(c)] for c in self.ring[i, pos]]

    def hands(self, i: int) -> list[list[Card]]:
        """Game ``i``'s hands, each by card index."""
        return [[DECK[int(c)] for c in np.flatnonzero(self.where[i] == s)]
                for s in range(self.players)]

    # -- legality ---------------------------------------------------------------------
    def _final(self) -> BoolArray:
        """L10: the current play emptied its player's hand (doubt or accept only)."""
        has = self.cur_seat >= 0
        empty = self.size[np.arange(self.n), np.maximum(self.cur_seat, 0)] == 0
        return np.asarray(has & empty, dtype=bool)

    def allowed_rates(self) -> BoolArray:
        """(n, 13): the rates the player to move may declare (none where it may not play:
        L10, O3, a bound field with no next rate, or a game over)."""
        if self._rates is None:  # kept until the next step or reset
            rates = self.allowed[self.jack_back.astype(np.int64),
                                 self.bound.astype(np.int64), self.cur_rate]
            self._rates = rates & ~(self._final() | self.done)[:, None]
        return self._rates

    def _flags(self) -> tuple[BoolArray, BoolArray, BoolArray]:
        """Where the player to move may pass, doubt and accept (L6, L9, L10)."""
        live = ~self.done
        field = (self.cur_seat >= 0) & live
        final = self._final() & live
        return field & ~final, field, final

    def legal_mask(self) -> BoolArray:
        """(n, 783): the legal action ids of each game's player to move (none when done)."""
        rows = np.arange(self.n)
        hand = self.where == self.to_move[:, None].astype(np.int8)
        mask = np.zeros((self.n, self.num_actions), dtype=bool)
        # play 13 * card + rate: each held card with each allowed rate (an outer product
        # written flat: numpy is slow at broadcasting into a 13-wide last axis)
        mask[:, :liar_codec.SELECT_BASE] = (np.repeat(hand, RATE_COUNT, axis=1)
                                            & np.tile(self.allowed_rates(), CARDS))
        pass_, doubt, accept = self._flags()
        mask[rows, liar_codec.PASS_ID] = pass_
        mask[rows, liar_codec.DOUBT_ID] = doubt
        mask[rows, liar_codec.ACCEPT_ID] = accept
        return mask

    def random_actions(self) -> IntArray:
        """A uniformly random legal id per game (-1 where done)."""
        rows = np.arange(self.n)
        rates = self.allowed_rates()
        n_rates = rates.sum(axis=1)
        held = self.size[rows, self.to_move]
        pass_, doubt, accept = (f.astype(np.int64) for f in self._flags())
        plays = held * n_rates
        count = plays + pass_ + doubt + accept
        u = (self.rng.random(self.n) * np.maximum(count, 1)).astype(np.int64)
        k_card, k_rate = np.divmod(u, np.maximum(n_rates, 1))
        hand = self.where == self.to_move[:, None].astype(np.int8)
        card = np.argmax(np.cumsum(hand, axis=1, dtype=np.int8) > k_card[:, None], axis=1)
        rate = np.argmax(np.cumsum(rates, axis=1, dtype=np.int8) > k_rate[:, None], axis=1)
        other = u - plays  # 0, 1, 2 among pass, doubt, accept as legal
        extra = np.where(other < pass_, liar_codec.PASS_ID,
                         np.where(other < pass_ + doubt, liar_codec.DOUBT_ID,
                                  liar_codec.ACCEPT_ID))
        a = np.where(u < plays, card * RATE_COUNT + rate, extra)
        return np.where(self.done, -1, a)

    # -- acting -----------------------------------------------------------------------
    def step(self, actions: IntArray) -> BoolArray:
        """Apply one action id per game (ignored where done). Returns where a game ended;
        ``rewards`` holds each ended game's rewards by place (L11).

        :raises ValueError: if an action is illegal in a game still in play (nothing changes).
        """
        actions = np.asarray(actions, dtype=np.int64)
        live = ~self.done
        rows = np.arange(self.n)
        safe = np.clip(actions, 0, self.num_actions - 1)
        card, rate = np.divmod(np.minimum(safe, liar_codec.SELECT_BASE - 1), RATE_COUNT)
        is_play = (actions >= 0) & (actions < liar_codec.SELECT_BASE)
        pass_, doubt, accept = self._flags()
        legal = np.where(is_play, (self.where[rows, card] == self.to_move)
                         & self.allowed_rates()[rows, rate],
                         np.where(actions == liar_codec.PASS_ID, pass_,
                                  np.where(actions == liar_codec.DOUBT_ID, doubt,
                                           (actions == liar_codec.ACCEPT_ID) & accept)))
        bad = live & ~legal
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"game {i}: action {int(actions[i])} is not legal")
        self.decisions += int(live.sum())
        self.rewards[:] = 0.0
        self._rates = None
        ended = np.zeros(self.n, dtype=bool)
        self._play(np.flatnonzero(live & is_play), card, rate, ended)
        self._pass(np.flatnonzero(live & (actions == liar_codec.PASS_ID)), ended)
        self._doubt(np.flatnonzero(live & (actions == liar_codec.DOUBT_ID)), ended)
        acc = np.flatnonzero(live & (actions == liar_codec.ACCEPT_ID))
        self.turns[acc] += 1
        self._end(acc, self.cur_seat[acc], ended)  # L10: the play stands; its player wins
        if self.autoreset and ended.any():
            self.reset(ended)
        return ended

    def _play(self, g: IntArray, card: IntArray, rate: IntArray, ended: BoolArray) -> None:
        if g.size == 0:
            return
        c, r, s = card[g], rate[g], self.to_move[g]
        # O4-O6: the flags this play leaves (order_after)
        flags = self.after[self.jack_back[g].astype(np.int64), self.bound[g].astype(np.int64),
                           self.cur_rate[g], r]
        self.jack_back[g], self.bound[g] = flags >= 2, (flags & 1) == 1
        # tracking: the player's tracked cards may now be on the field
        mine = self.known_hand[g] == s[:, None]
        self.known_before[g] = mine
        self.known_hand[g] = np.where(mine, -1, self.known_hand[g])
        held = self.secret_holder[g]
        self.secret_holder[g] = np.where(held == s[:, None], -1, held)
        self.where[g, c] = self.field_at
        self.played_by[g, c] = s
        self.size[g, s] -= 1
        self.cur_seat[g], self.cur_card[g], self.cur_rate[g] = s, c, r
        self.field_cards[g] += 1
        self.to_move[g] = (s + 1) % self.players
        self.turns[g] += 1
        out = self.size[g, s] == 0
        if not self.rules.final_doubt:  # L10: out at once
            self._end(g[out], s[out], ended)
            g = g[~out]
        self._turn_limit(g, ended)

    def _pass(self, g: IntArray, ended: BoolArray) -> None:
        if g.size == 0:
            return
        s = self.to_move[g]
        drawing = self.stock[g] > 0  # L6: draw at once, if the stock is not empty
        self._draw(g[drawing], s[drawing], np.ones(int(drawing.sum()), dtype=np.int64))
        nxt = (s + 1) % self.players
        back = nxt == self.cur_seat[g]  # L7: all passed: flush, the current player leads
        gb = g[back]
        self._flush(gb, np.zeros((gb.size, CARDS), dtype=bool))
        self.to_move[g] = nxt
        self.turns[g] += 1
        self._turn_limit(g, ended)

    def _doubt(self, g: IntArray, ended: BoolArray) -> None:
        if g.size == 0:
            return
        s, d, c = self.to_move[g], self.cur_seat[g], self.cur_card[g]
        truthful = self.card_rate[c] == self.cur_rate[g]  # L9
        went_out = self.size[g, d] == 0
        count = self.field_cards[g].copy()  # N: the whole field
        # tracking: what the doubted player certainly held before the play, but did not
        # play, is certainly still in its hand
        back = self.known_before[g]
        back[np.arange(g.size), c] = False
        self.known_hand[g] = np.where(back, d[:, None], self.known_hand[g])
        shown = np.zeros((g.size, CARDS), dtype=bool)
        shown[np.arange(g.size), c] = True
        self._flush(g, shown)  # L9: the flush comes first
        drawer = np.where(truthful, s, d)
        self._draw(g, drawer, count)
        self.to_move[g] = np.where(truthful, d, s)
        self.turns[g] += 1
        win = truthful & went_out  # L10: the player who went out wins
        self._end(g[win], d[win], ended)
        self._turn_limit(g[~win], ended)

    def _flush(self, g: IntArray, shown: BoolArray) -> None:
        """L8: the field's cards, shuffled, go under the stock in one tracked block;
        J-back and binding end; nothing of the field stays."""
        if g.size == 0:
            return
        on_field = self.where[g] == self.field_at
        count = self.field_cards[g]
        # a random order of each field's cards: the first ``count`` sort keys
        order = np.argsort(np.where(on_field, self.rng.random((g.size, CARDS)), 2.0), axis=1)
        k = np.repeat(np.arange(g.size), count)
        j = np.arange(k.size) - np.repeat(np.cumsum(count) - count, count)
        cards = order[k, j]
        self.bottom[g] = (self.bottom[g] - count) % CARDS
        self.ring[g[k], (self.bottom[g[k]] + j) % CARDS] = cards
        self.stock[g] += count
        self.where[g] = np.where(on_field, self.stock_at, self.where[g])
        # tracking: one block of positions [flushed, flushed + count) counted from the
        # start of the game, its shown cards public, the others known to their players
        self.block_lo[g] = np.where(on_field, self.flushed[g][:, None], self.block_lo[g])
        self.top_block[g] = np.where(self.top_block[g] >= 0, self.top_block[g], self.flushed[g])
        self.flushed[g] += count
        self.block_hi[g] = np.where(on_field, self.flushed[g][:, None], self.block_hi[g])
        self.shown[g] = np.where(on_field, shown, self.shown[g])
        self.own_by[g] = np.where(on_field, np.where(shown, -1, self.played_by[g]),
                                  self.own_by[g])
        self.played_by[g] = -1
        self.known_before[g] = False
        self.cur_seat[g] = -1
        self.cur_rate[g] = LEAD
        self.field_cards[g] = 0
        self.jack_back[g] = False
        self.bound[g] = False

    def _draw(self, g: IntArray, seat: IntArray, count: IntArray) -> None:
        """``seat`` draws ``count`` cards from the top of the stock of each game ``g``."""
        if g.size == 0:
            return
        k = np.repeat(np.arange(g.size), count)
        j = np.arange(k.size) - np.repeat(np.cumsum(count) - count, count)
        gk = g[k]
        cards = self.ring[gk, (self.bottom[gk] + self.stock[gk] - 1 - j) % CARDS]
        self.where[gk, cards] = seat[k]
        self.size[g, seat] += count
        lowest = self.stock[g] - count
        self.stock[g] = lowest
        # tracking: a block whose top the draw reached goes whole into the drawer's hand
        # (its shown cards public, its own cards known to their players), or in part, its
        # cards then in no certain place; only games whose topmost block was reached
        top = self.top_block[g]
        hit = (top >= 0) & (self.flushed[g] - top > lowest)
        g, seat, lowest = g[hit], seat[hit], lowest[hit][:, None]
        if g.size == 0:
            return
        lo = self.block_lo[g]
        reached = (lo >= 0) & (self.flushed[g][:, None] - lo > lowest)
        whole = reached & (self.flushed[g][:, None] - self.block_hi[g] >= lowest)
        drawer = seat[:, None].astype(np.int8)
        self.known_hand[g] = np.where(whole & self.shown[g], drawer, self.known_hand[g])
        own = self.own_by[g]
        secret = whole & (own >= 0) & (own != drawer)
        self.secret_holder[g] = np.where(secret, drawer, self.secret_holder[g])
        self.own_by[g] = np.where(reached & ~secret, -1, own)
        lo = np.where(reached, -1, lo)
        self.block_lo[g] = lo
        self.block_hi[g] = np.where(reached, -1, self.block_hi[g])
        self.shown[g] = self.shown[g] & ~reached
        self.top_block[g] = np.where(lo >= 0, lo, np.iinfo(np.int32).max).min(axis=1)
        self.top_block[g[(lo < 0).all(axis=1)]] = -1

    def _turn_limit(self, g: IntArray, ended: BoolArray) -> None:
        limit = self.rules.turn_limit
        if limit is not None and g.size:
            over = g[(self.turns[g] >= limit) & ~self.done[g]]
            self._end(over, np.full(over.size, -1, dtype=np.int64), ended)

    def _end(self, g: IntArray, winner: IntArray, ended: BoolArray) -> None:
        """L11: the winner (if any) first, then by cards in hand, fewest first; a shared
        place shares the rewards of the places it spans."""
        if g.size == 0:
            return
        p = self.players
        self.done[g] = True
        self.winner[g] = winner
        ended[g] = True
        self.games_finished += g.size
        sizes = self.size[g]
        is_winner = np.arange(p)[None, :] == winner[:, None]
        others = ~is_winner
        # each seat's first place and the number sharing it, among the non-winners
        smaller = ((sizes[:, None, :] < sizes[:, :, None]) & others[:, None, :]).sum(axis=2)
        equal = ((sizes[:, None, :] == sizes[:, :, None]) & others[:, None, :]).sum(axis=2)
        first = smaller + (winner >= 0)[:, None]
        spans = np.arange(p)[None, None, :]
        in_span = (spans >= first[:, :, None]) & (spans < (first + equal)[:, :, None])
        value = (in_span * self._places[None, None, :]).sum(axis=2) / np.maximum(equal, 1)
        self.rewards[g] = np.where(is_winner, self._places[0], value)

    # -- observations ---------------------------------------------------------------
    def observe(self, seats: IntArray | None = None) -> ObsArray:
        """(n, observation_size): each game's :class:`LiarCodec` tensor of the view of
        ``seats`` (default: the seat to move), seats relative to it."""
        n, p, o = self.n, self.players, self.codec.offsets
        me = self.to_move if seats is None else np.asarray(seats, dtype=np.int64)
        rows = np.arange(n)
        mine = me[:, None].astype(np.int8)
        out = np.zeros((n, self.observation_size), dtype=np.float32)
        out[:, o["hand"]:o["hand"] + CARDS] = self.where == mine
        rel = (np.arange(p)[None, :] - mine) % p
        out[rows[:, None], o["hand_sizes"] + rel] = self.size / 52
        out[:, o["stock"]] = self.stock / 52
        field = self.cur_seat >= 0
        f = rows[field]
        i = o["current"]
        out[f, i + (self.cur_seat[f] - me[f]) % p] = 1
        out[f, i + p + self.cur_rate[f]] = 1
        out[f, i + p + RATE_COUNT] = 1 / 52  # a single card
        out[:, o["field"]] = self.field_cards / 52
        out[:, o["field"] + 1] = self.field_cards / 52  # one card a play
        out[:, o["own_field"]:o["own_field"] + CARDS] = (
            (self.where == self.field_at) & (self.played_by == mine))
        width = p + 1
        for key, in_stock, holder in (
                ("known", self.shown & (self.block_lo >= 0), self.known_hand),
                ("own_places", (self.own_by == mine) & (self.block_lo >= 0),
                 np.where(self.own_by == mine, self.secret_holder, np.int8(-1)))):
            # each card's column: 0 in the stock, 1 + the relative seat holding it
            column = np.where(holder >= 0, 1 + (holder - mine) % p, -1)
            column[in_stock] = 0
            g, c = np.nonzero(column >= 0)
            out[g, o[key] + c * width + column[g, c]] = 1
        i = o["flags"]
        out[:, i] = self.jack_back  # the order in force: reversed by a J-back alone
        out[:, i + 2] = self.jack_back
        out[:, i + 3] = self.bound
        out[f, i + 4] = self.cut[self.cur_rate[f]]  # O3 holds for the current play
        live = rows[~self.done]
        out[live, o["to_move"] + (self.to_move[live] - me[live]) % p] = 1
        i = o["legal"]
        pass_, doubt, accept = self._flags()
        rates = self.allowed_rates()
        play = np.asarray(rates.any(axis=1), dtype=bool)
        out[:, i], out[:, i + 1], out[:, i + 2] = pass_, doubt, accept
        out[:, i + 4] = play  # a play is one card (no O1)
        out[:, i + 4 + CARDS:i + 4 + CARDS + RATE_COUNT] = rates & play[:, None]
        if self.rules.turn_limit:
            out[:, o["turns"]] = self.turns / self.rules.turn_limit
        return out

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
