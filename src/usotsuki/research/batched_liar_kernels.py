"""The batched Liar Game's per-game loops, compiled with Numba: the deal (and O7's
exchanges), what the player to move may do (the legal mask, a uniformly random legal
id), each game's observation and the step, one game at a time over
:class:`~usotsuki.research.batched_liar.BatchedLiar`'s state, so that a step costs what
its games hold, not a pass over every card of every game per piece. The engine holds the
tables (from the core) and the state; the step and the deal change it, the others only
read it. The deal's and the flushes' shuffles draw from a SplitMix64 stream (``stream``,
one uint64 the kernels carry on) that the engine seeds from its numpy generator: a numpy
``Generator`` passed to a compiled function costs about 25 microseconds a call to unpack,
a tenth of a step of 4096 games. Random ids take uniforms from the generator itself.

A play of several cards (O1) or an O7 give is made card by card, as the environments'
ids make it (:mod:`usotsuki.envs.liar_codec`): ``select`` ids put cards aside, lowest
first, and the play or give id of the last card completes it. ``need`` is the count a
play or give must have: 0 for any count up to the whole hand (an O1 lead), else exactly
that many.

Each seat's hand (``held``), each seat's cards on the field, the views' card tracking
(:class:`Sets`) and the rates allowed are kept as bit sets (bit ``c`` for card ``c``),
so that the mask, random ids and the observation visit the cards in a set (LLVM's
``cttz``) rather than scan the deck: a scan's unpredictable branch per card cost more
than the rest of those kernels. The flush, the draw and the end of a game are inlined
into the step (Numba's ``inline="always"``): called, each passed its thirty arrays
field by field, they cost the step about a tenth more.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.extending import intrinsic

IntArray = npt.NDArray[np.int64]
SeatArray = npt.NDArray[np.int8]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
ObsArray = npt.NDArray[np.float32]

CARDS = 52
RATES = 13
PASS, DOUBT, ACCEPT, GIVE = 0, 1, 2, 3  # columns of ``moves``
BitArray = npt.NDArray[np.uint64]  # sets of cards, bit c for card c
ONE = np.uint64(1)
ALL = np.uint64((1 << CARDS) - 1)


class Sets(NamedTuple):
    """What the views show of the field and the tracking, as card sets (bit ``c`` for
    card ``c``), kept by the step beside the per-card blocks, so that an observation
    visits the cards in them rather than the deck."""

    field_by: BitArray  # (n, P): the cards on the field, by the seat that played them
    known_before: BitArray  # (n,): the current play's player's known cards before it
    shown_stock: BitArray  # (n,): cards shown in doubts, certainly in the stock
    known: BitArray  # (n, P): cards shown in doubts, certainly in seat s's hand
    own_stock: BitArray  # (n, P): seat s's own face-down cards certainly in the stock
    own_held: BitArray  # (n, P, P): seat s's own cards certainly in seat h's hand


class Owed(NamedTuple):
    """O7: the gives still owed in each game (at most two, made in order)."""

    giver: IntArray  # (n, 2): the higher player, who gives back
    receiver: IntArray  # (n, 2): the lower player
    size: IntArray  # (n, 2): how many cards
    next: IntArray  # (n,): the first still owed
    total: IntArray  # (n,): how many were owed


class Blocks(NamedTuple):
    """The tracked blocks of the stock, a queue per game (at most 52: each holds a card
    of the stock): a flush puts its field under the stock as one block, and a draw that
    reaches a block's top takes it off the queue, whole or in part. Its cards stay
    tracked in :class:`Sets` (shown, or known to their players) until then."""

    start: npt.NDArray[np.int32]  # (n, 52): a block's first position, flushed cards
    cards: BitArray  # (n, 52): its cards as a set
    head: IntArray  # (n,): the ring index of the oldest (topmost) block
    queued: IntArray  # (n,): how many blocks are queued


def _cttz(typingctx: Any, bits: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        nonzero = context.get_constant(types.boolean, True)  # undefined for 0: faster
        return builder.zext(builder.cttz(args[0], nonzero), context.get_value_type(types.int64))
    return types.int64(types.uint64), codegen


def _ctpop(typingctx: Any, bits: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.zext(builder.ctpop(args[0]), context.get_value_type(types.int64))
    return types.int64(types.uint64), codegen


_lowest = cast(Callable[[np.uint64], int], intrinsic(_cttz))
"""The index of the lowest set bit of a nonzero uint64 (LLVM's cttz)."""
_count = cast(Callable[[np.uint64], int], intrinsic(_ctpop))
"""The number of set bits of a uint64 (LLVM's ctpop)."""


GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment and mixing constants
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
UNIT = 1.0 / (1 << 53)  # the spacing of the uniforms in [0, 1)


@njit(cache=True, nogil=True, error_model="numpy")
def _below(state: np.uint64, bound: int) -> tuple[np.uint64, int]:
    """SplitMix64 (Steele, Lea and Flood, 2014) from ``state``: the next state and an
    integer uniform in [0, ``bound``), from the output's top 53 bits."""
    state = state + GOLDEN
    z = (state ^ (state >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z = z ^ (z >> np.uint64(31))
    r = int(float(z >> np.uint64(11)) * UNIT * bound)
    return state, min(r, bound - 1)


@njit(cache=True, nogil=True, error_model="numpy")
def _above(last: int) -> np.uint64:
    """The cards above card ``last`` (-1: every card)."""
    return ALL & ~((ONE << np.uint64(last + 1)) - ONE)


@njit(cache=True, nogil=True, error_model="numpy")
def _nth(bits: np.uint64, k: int) -> int:
    """The ``k``-th (from 0) lowest card of ``bits`` (-1 if it has fewer)."""
    for _ in range(k):
        bits &= bits - ONE
    return _lowest(bits) if bits else -1


@njit(cache=True, nogil=True, error_model="numpy")
def deal(rows: IntArray, stream: BitArray, hand_sizes: IntArray,
         l4_place: IntArray, lead: int, stock_at: int, where: SeatArray, held: BitArray,
         size: IntArray, ring: SeatArray, bottom: IntArray, stock: IntArray,
         to_move: IntArray, played_by: SeatArray, selected: BoolArray, chosen: IntArray,
         last: IntArray, cur_seat: IntArray,
         cur_rate: IntArray, cur_count: IntArray, field_cards: IntArray,
         field_plays: IntArray, revolution: BoolArray, jack_back: BoolArray,
         bound: BoolArray, turns: IntArray, done: BoolArray, winner: IntArray,
         flushed: IntArray, blocks: Blocks, sets: Sets, owed: Owed) -> None:
    """A new game in each of ``rows`` (the deck shuffled by a Fisher-Yates shuffle drawn
    from ``stream``): L3, the deck dealt one card at a time from
    seat 0, the rest the stock (top first; its last card at the bottom, ring position
    0); L4, the holder of the first card of ``L4_ORDER`` anyone holds to move; nothing
    on the field, nothing tracked, the order normal."""
    players = size.shape[1]
    dealt = 0
    for s in range(players):
        dealt += hand_sizes[s]
    deck = np.empty(CARDS, dtype=np.int64)
    state = stream[0]
    for k in range(rows.size):
        g = rows[k]
        for c in range(CARDS):
            deck[c] = c
        for j in range(CARDS - 1):
            state, r = _below(state, CARDS - j)
            deck[j], deck[j + r] = deck[j + r], deck[j]
        first, starter = CARDS, -1
        sets.known_before[g], sets.shown_stock[g] = 0, 0
        owed.next[g], owed.total[g] = 0, 0
        for s in range(players):
            held[g, s] = 0
            size[g, s] = hand_sizes[s]
            sets.field_by[g, s], sets.known[g, s], sets.own_stock[g, s] = 0, 0, 0
            for h in range(players):
                sets.own_held[g, s, h] = 0
        for i in range(dealt):
            c, s = deck[i], i % players
            where[g, c] = s
            held[g, s] |= ONE << np.uint64(c)
            if l4_place[c] < first:
                first, starter = l4_place[c], s
        rest = CARDS - dealt
        for j in range(rest):  # position j from the bottom
            c = deck[CARDS - 1 - j]
            where[g, c] = stock_at
            ring[g, j] = c
        bottom[g] = 0
        stock[g] = rest
        to_move[g] = starter
        for c in range(CARDS):
            played_by[g, c] = -1
            selected[g, c] = False
        chosen[g], last[g] = 0, -1
        cur_seat[g], cur_rate[g], cur_count[g] = -1, lead, 0
        field_cards[g], field_plays[g] = 0, 0
        revolution[g], jack_back[g], bound[g] = False, False, False
        turns[g], done[g], winner[g] = 0, False, -1
        flushed[g], blocks.head[g], blocks.queued[g] = 0, 0, 0
    stream[0] = state


@njit(cache=True, nogil=True, error_model="numpy")
def exchange(rows: IntArray, pairs: IntArray, gift_order: IntArray, l4_order: IntArray,
             where: SeatArray, held: BitArray, size: IntArray, to_move: IntArray,
             sets: Sets, owed: Owed) -> None:
    """O7, in each of ``rows`` (a match's next game, just dealt): for each pair
    ``pairs[k, j]`` (higher, lower, cards; -1 for none) the lower player's highest cards
    (``gift_order``: normal order, spades first among equals) go to the higher player,
    as many as both hands allow, the lower player knowing where they went; the higher
    then owes as many back, first pair first, and moves; with nothing owed, L4."""
    players = size.shape[1]
    for k in range(rows.size):
        g = rows[k]
        n = 0
        for j in range(pairs.shape[1]):
            higher, lower, count = pairs[k, j, 0], pairs[k, j, 1], pairs[k, j, 2]
            if higher < 0:
                continue
            count = min(count, size[g, lower], size[g, higher])
            if count == 0:
                continue
            gift, taken = np.uint64(0), 0
            for c in gift_order:
                if taken == count:
                    break
                if where[g, c] == lower:
                    where[g, c] = higher
                    gift |= ONE << np.uint64(c)
                    taken += 1
            held[g, lower] &= ~gift
            held[g, higher] |= gift
            size[g, lower] -= count
            size[g, higher] += count
            sets.own_held[g, lower, higher] |= gift
            owed.giver[g, n], owed.receiver[g, n], owed.size[g, n] = higher, lower, count
            n += 1
        owed.next[g], owed.total[g] = 0, n
        to_move[g] = owed.giver[g, 0] if n else _starter(g, where, players, l4_order)


@njit(cache=True, nogil=True, error_model="numpy")
def legal_moves(cur_seat: IntArray, cur_count: IntArray, size: IntArray, to_move: IntArray,
                done: BoolArray, revolution: BoolArray, jack_back: BoolArray,
                bound: BoolArray, cur_rate: IntArray, reversed_order: BoolArray,
                allowed: BitArray, multi: bool, owed: Owed, rates: BitArray,
                moves: BoolArray, need: IntArray) -> None:
    """For each game: ``rates[g]``, the set of rates (bit ``r`` for rate ``r``; ``allowed``
    the table of them by order, binding and previous rate) the player to move may
    declare (none where it may not play: L10, O3, a bound field with no next rate, a
    hand smaller than the current play, a give owed, or a game over), ``moves[g]``,
    whether it may pass, doubt, accept (L6, L9, L10) and must give (O7), and
    ``need[g]``, the count a play or give must have (O1: the current play's; a lead any
    count with ``multi``, else one card; O7: the cards owed)."""
    for g in range(cur_seat.size):
        if owed.next[g] < owed.total[g] and not done[g]:  # O7: a give, nothing else
            moves[g, PASS] = moves[g, DOUBT] = moves[g, ACCEPT] = False
            moves[g, GIVE] = True
            need[g] = owed.size[g, owed.next[g]]
            rates[g] = 0
            continue
        moves[g, GIVE] = False
        field = cur_seat[g] >= 0 and not done[g]
        final = field and size[g, cur_seat[g]] == 0  # L10: doubt or accept only
        moves[g, PASS] = field and not final
        moves[g, DOUBT] = field
        moves[g, ACCEPT] = final
        may_play = not (final or done[g])
        count = cur_count[g] if cur_seat[g] >= 0 else (0 if multi else 1)
        need[g] = count
        if count > size[g, to_move[g]]:  # O1: as many cards as the current play
            may_play = False
        rev = reversed_order[int(revolution[g]), int(jack_back[g])]
        rates[g] = allowed[int(rev), int(bound[g]), cur_rate[g]] if may_play else 0


@njit(cache=True, nogil=True, error_model="numpy")
def _completion(need: int, chosen: int, above: int) -> tuple[bool, int]:
    """With ``chosen`` cards selected and ``above`` held cards above the last of them:
    whether the next card may complete the play, and how many of those cards (lowest
    first) may be selected, leaving enough cards above to reach a count allowed (the
    completions :func:`usotsuki.envs.liar_codec.summary_ids` offers)."""
    if need == 0:  # any count: a select needs one more card above
        return True, max(above - 1, 0)
    if need < chosen + 2:
        return need == chosen + 1, 0
    return False, max(above - (need - chosen - 1), 0)


@njit(cache=True, nogil=True, error_model="numpy")
def legal_mask(held: BitArray, to_move: IntArray, chosen: IntArray, last: IntArray,
               need: IntArray, rates: BitArray, moves: BoolArray, select_base: int,
               give_base: int, pass_id: int, mask: BoolArray) -> None:
    """``mask`` (n, ids), zeroed here: each held card above the last selected one with
    each allowed rate where it completes the play (``13 * card + rate``), or its give
    where it completes an O7 give (``give_base + card``), its select where the play or
    give can still be completed after it (O1, O7), then pass, doubt and accept (before
    any select)."""
    for g in range(to_move.size):
        mask[g] = False
        give = moves[g, GIVE]
        if rates[g] or give:
            bits = held[g, to_move[g]] & _above(last[g])
            finish, selects = _completion(need[g], chosen[g], _count(bits))
            i = 0
            while bits:
                c = _lowest(bits)
                bits &= bits - ONE
                if finish:
                    if give:
                        mask[g, give_base + c] = True
                    _put(mask[g], c * RATES, 1, rates[g])
                mask[g, select_base + c] = i < selects
                i += 1
        if chosen[g] == 0:
            for k in range(3):
                mask[g, pass_id + k] = moves[g, k]


@njit(cache=True, nogil=True, error_model="numpy")
def random_ids(held: BitArray, to_move: IntArray, chosen: IntArray, last: IntArray,
               need: IntArray, rates: BitArray, moves: BoolArray, done: BoolArray,
               uniforms: FloatArray, select_base: int, give_base: int, pass_id: int,
               out: IntArray) -> None:
    """A uniformly random legal id per game (-1 where done), from its uniform in [0, 1) of
    ``uniforms``: the ``k``-th of the legal ids in the order plays (card by card, rate by
    rate) or gives, selects, pass, doubt, accept."""
    for g in range(to_move.size):
        if done[g]:
            out[g] = -1
            continue
        n_rates = _count(rates[g])
        finish, selects, above = False, 0, 0
        bits = held[g, to_move[g]] & _above(last[g])
        give = moves[g, GIVE]
        if n_rates or give:
            above = _count(bits)
            finish, selects = _completion(need[g], chosen[g], above)
        plays = above * (1 if give else n_rates) if finish else 0
        count = plays + selects
        if chosen[g] == 0:
            count += moves[g, PASS] + moves[g, DOUBT] + moves[g, ACCEPT]
        k = int(uniforms[g] * max(count, 1))
        if k < plays and give:
            out[g] = give_base + _nth(bits, k)
            continue
        if k < plays:
            k_card, k_rate = k // n_rates, k % n_rates
            out[g] = _nth(bits, k_card) * RATES + _nth(rates[g], k_rate)
            continue
        k -= plays
        if k < selects:
            out[g] = select_base + _nth(bits, k)
            continue
        k -= selects
        for m in range(3):
            if moves[g, m]:
                if k == 0:
                    out[g] = pass_id + m
                    break
                k -= 1


@njit(cache=True, nogil=True, error_model="numpy")
def _starter(g: int, where: SeatArray, players: int, l4_order: IntArray) -> int:
    """L4: the holder of the first card of ``l4_order`` anyone holds."""
    for c in l4_order:
        if where[g, c] < players:
            return int(where[g, c])
    return -1


@njit(cache=True, nogil=True, error_model="numpy")
def _next(seat: int, players: int) -> int:
    """The seat after ``seat`` clockwise (no division: the step takes this per game)."""
    return seat + 1 if seat + 1 < players else 0


@njit(cache=True, nogil=True, error_model="numpy")
def _rel(seat: int, me: int, players: int) -> int:
    """``seat`` relative to ``me`` (0 is ``me``, 1 the next seat clockwise)."""
    return seat - me + (players if seat < me else 0)


@njit(cache=True, nogil=True, error_model="numpy")
def _put(row: npt.NDArray[np.unsignedinteger], start: int, stride: int,
         bits: np.uint64) -> None:
    """1 at ``start + stride * c`` for each card ``c`` of ``bits``."""
    while bits:
        row[start + stride * _lowest(bits)] = 1
        bits &= bits - ONE


@njit(cache=True, nogil=True, error_model="numpy")
def observe(seats: IntArray, held: BitArray, sets: Sets, size: IntArray, stock: IntArray,
            cur_seat: IntArray, cur_rate: IntArray, cur_count: IntArray,
            field_cards: IntArray, field_plays: IntArray, selected: BoolArray,
            last: IntArray, need: IntArray, revolution: BoolArray, jack_back: BoolArray,
            reversed_order: BoolArray, bound: BoolArray, cut: BoolArray, to_move: IntArray,
            done: BoolArray, turns: IntArray, turn_limit: int, game: IntArray,
            rates: BitArray, moves: BoolArray, offsets: IntArray,
            out: npt.NDArray[np.unsignedinteger]) -> None:
    """``out[g]`` (zeroed here): the :class:`~usotsuki.envs.liar_codec.LiarCodec` tensor of
    seat ``seats[g]``'s view of game ``g`` as counts (a count where the tensor has a
    fraction ``count / d``), seats relative to it, with the cards selected for a play in
    progress when that seat is to move. ``offsets``: where the codec's pieces hand,
    selected, hand_sizes, stock, current, field, own_field, known, own_places, flags,
    to_move, legal and turns start."""
    (o_hand, o_selected, o_sizes, o_stock, o_current, o_field, o_own_field, o_known,
     o_own_places, o_flags, o_to_move, o_legal, o_turns) = offsets
    players = size.shape[1]
    width = players + 1
    for g in range(seats.size):
        row = out[g]
        row[:] = 0
        me = seats[g]
        _put(row, o_hand, 1, held[g, me])
        for s in range(players):
            row[o_sizes + _rel(s, me, players)] = size[g, s]
        row[o_stock] = stock[g]
        if cur_seat[g] >= 0:
            row[o_current + _rel(cur_seat[g], me, players)] = 1
            row[o_current + players + cur_rate[g]] = 1
            row[o_current + players + RATES] = cur_count[g]
            row[o_flags + 4] = cut[cur_rate[g]]  # O3 holds for the current play
            _put(row, o_own_field, 1, sets.field_by[g, me])
        row[o_field] = field_cards[g]
        row[o_field + 1] = field_plays[g]
        if me == to_move[g] and not done[g]:  # the selected cards: all up to the last
            for c in range(last[g] + 1):
                row[o_selected + c] = selected[g, c]
        # known: shown cards in the stock (column 0) or certainly in a hand; own_places:
        # the seat's own face-down cards, in the stock or drawn whole into a hand
        _put(row, o_known, width, sets.shown_stock[g])
        _put(row, o_own_places, width, sets.own_stock[g, me])
        for s in range(players):
            column = 1 + _rel(s, me, players)
            _put(row, o_known + column, width, sets.known[g, s])
            _put(row, o_own_places + column, width, sets.own_held[g, me, s])
        row[o_flags] = reversed_order[int(revolution[g]), int(jack_back[g])]
        row[o_flags + 1] = revolution[g]
        row[o_flags + 2] = jack_back[g]
        row[o_flags + 3] = bound[g]
        if not done[g]:
            row[o_to_move + _rel(to_move[g], me, players)] = 1
        for k in range(4):
            row[o_legal + k] = moves[g, k]
        if rates[g]:  # the counts allowed: the current play's, or any up to the hand (O1)
            if need[g]:
                row[o_legal + 4 + need[g] - 1] = 1
            else:
                for n in range(size[g, to_move[g]]):
                    row[o_legal + 4 + n] = 1
            _put(row, o_legal + 4 + CARDS, 1, rates[g])
        if turn_limit:
            row[o_turns] = turns[g]
        row[o_turns + 1] = min(game[g], 8)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _end(g: int, winner: int, size: IntArray, places: FloatArray, done: BoolArray,
         winners: IntArray, rewards: FloatArray, ended: BoolArray) -> None:
    """L11: the winner (if any) first, then by cards in hand, fewest first; a shared
    place shares the rewards of the places it spans."""
    players = size.shape[1]
    done[g] = True
    winners[g] = winner
    ended[g] = True
    for s in range(players):
        if s == winner:
            rewards[g, s] = places[0]
            continue
        smaller = equal = 0
        for t in range(players):
            if t != winner:
                smaller += size[g, t] < size[g, s]
                equal += size[g, t] == size[g, s]
        first = smaller + (1 if winner >= 0 else 0)
        total = 0.0
        for k in range(first, first + equal):
            total += places[k]
        rewards[g, s] = total / equal


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _flush(g: int, show: bool, state: np.uint64, stock_at: int, lead: int,
           where: SeatArray, ring: SeatArray, bottom: IntArray, stock: IntArray,
           played_by: SeatArray, field_list: SeatArray, cur_cards: SeatArray,
           cur_seat: IntArray, cur_rate: IntArray, cur_count: IntArray,
           field_cards: IntArray, field_plays: IntArray, jack_back: BoolArray,
           bound: BoolArray, flushed: IntArray, blocks: Blocks, sets: Sets) -> np.uint64:
    """L8: the field's cards, in a uniformly random order (a Fisher-Yates shuffle drawn
    from the stream at ``state``; the next state is returned), go under the stock as one
    block queued last (its first position ``flushed``, counted in flushed cards from the
    start of the game; the current play's cards public if ``show``, the others known to
    their players); J-back and
    binding end, a revolution stays (O2); nothing of the field stays."""
    count = field_cards[g]
    cards = field_list[g]  # shuffled in place: the field is empty after
    for j in range(count - 1):
        state, r = _below(state, count - j)
        cards[j], cards[j + r] = cards[j + r], cards[j]
    bottom[g] = (bottom[g] - count) % CARDS
    block = np.uint64(0)
    for j in range(count):
        c = cards[j]
        ring[g, (bottom[g] + j) % CARDS] = c
        where[g, c] = stock_at
        played_by[g, c] = -1
        block |= ONE << np.uint64(c)
    stock[g] += count
    k = blocks.head[g] + blocks.queued[g]
    k = k - CARDS if k >= CARDS else k
    blocks.start[g, k] = flushed[g]
    blocks.cards[g, k] = block
    blocks.queued[g] += 1
    flushed[g] += count
    if show:
        for j in range(cur_count[g]):
            bit = ONE << np.uint64(cur_cards[g, j])
            sets.shown_stock[g] |= bit
            for s in range(sets.field_by.shape[1]):
                sets.field_by[g, s] &= ~bit
    for s in range(sets.field_by.shape[1]):  # the other cards: known to their players
        sets.own_stock[g, s] |= sets.field_by[g, s]
        sets.field_by[g, s] = 0
    sets.known_before[g] = 0
    cur_seat[g] = -1
    cur_rate[g] = lead
    cur_count[g] = 0
    field_cards[g] = 0
    field_plays[g] = 0
    jack_back[g] = False
    bound[g] = False
    return state


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _draw(g: int, seat: int, count: int, where: SeatArray, held: BitArray, size: IntArray,
          ring: SeatArray, bottom: IntArray, stock: IntArray, flushed: IntArray,
          blocks: Blocks, sets: Sets) -> None:
    """``seat`` draws ``count`` cards from the top of the stock. Tracking: each block
    whose top the draw reached leaves the queue, oldest first, and goes whole into the
    drawer's hand (its shown cards public, its own cards known to their players), or in
    part, its cards then in no certain place; a draw that does not reach the oldest
    block changes no tracking."""
    for j in range(count):
        c = ring[g, (bottom[g] + stock[g] - 1 - j) % CARDS]
        where[g, c] = seat
        held[g, seat] |= ONE << np.uint64(c)
    size[g, seat] += count
    lowest = stock[g] - count  # the cards left under the draw
    stock[g] = lowest
    while blocks.queued[g]:
        k = blocks.head[g]
        if flushed[g] - blocks.start[g, k] <= lowest:  # not reached: nor the later ones
            return
        nxt = k + 1 if k + 1 < CARDS else 0
        end = blocks.start[g, nxt] if blocks.queued[g] > 1 else flushed[g]
        whole = flushed[g] - end >= lowest
        cards = blocks.cards[g, k]
        shown = sets.shown_stock[g] & cards
        sets.shown_stock[g] &= ~cards
        if whole:
            sets.known[g, seat] |= shown
        for s in range(sets.own_stock.shape[1]):
            own = sets.own_stock[g, s] & cards
            sets.own_stock[g, s] &= ~cards
            if whole and s != seat:
                sets.own_held[g, s, seat] |= own
        blocks.head[g] = nxt
        blocks.queued[g] -= 1


@njit(cache=True, nogil=True, error_model="numpy")
def step(actions: IntArray, stream: BitArray, rates: BitArray, moves: BoolArray,
         need: IntArray, select_base: int, give_base: int, pass_id: int,
         after: npt.NDArray[np.int8], card_rate: IntArray, l4_order: IntArray, owed: Owed,
         places: FloatArray, final_doubt: bool, turn_limit: int, field_at: int,
         stock_at: int, lead: int, where: SeatArray, held: BitArray, size: IntArray,
         ring: SeatArray, bottom: IntArray, stock: IntArray, played_by: SeatArray,
         field_list: SeatArray, cur_cards: SeatArray, selected: BoolArray,
         chosen: IntArray, last: IntArray, cur_seat: IntArray, cur_rate: IntArray,
         cur_count: IntArray, field_cards: IntArray, field_plays: IntArray,
         revolution: BoolArray, jack_back: BoolArray,
         bound: BoolArray, to_move: IntArray, turns: IntArray, done: BoolArray,
         winner: IntArray, flushed: IntArray, blocks: Blocks, sets: Sets,
         rewards: FloatArray, ended: BoolArray
         ) -> tuple[int, int, int]:
    """One id per game still in play, each checked first against ``rates``, ``moves``
    and ``need`` (:func:`legal_moves`): the first game whose id :func:`legal_mask` does
    not allow is returned at once, nothing changed. Then: a select (O1: a card put
    aside, the same player goes on; no turn), a play of the selected cards and one more
    (L5, L6, O1, O2-O6 by ``after``), a pass (L6 draw, L7 all passed: flush), a doubt
    (L9: the current play's cards shown, flush, the loser draws the field; L10) or an
    accept (L10), then L11's turn limit; flushes shuffle from ``stream``. Or an O7 give
    (the selected cards and one more to the lower player; no turn), after the last of
    which L4 finds the first player. Games that end
    are marked in ``ended`` with their ``rewards`` (zero elsewhere). Returns (the
    illegal game or -1, the games in play, the games ended)."""
    players = size.shape[1]
    live = 0
    for g in range(actions.size):
        if not done[g]:
            live += 1
            if not _legal_id(actions[g], held[g, to_move[g]] & _above(last[g]), chosen[g],
                             need[g], rates[g], moves[g, PASS], moves[g, DOUBT],
                             moves[g, ACCEPT], moves[g, GIVE], select_base, give_base,
                             pass_id):
                return g, live, 0
    rewards[:] = 0.0
    state = stream[0]
    for g in range(actions.size):
        if done[g]:
            continue
        a, s = actions[g], to_move[g]
        if a < select_base:  # a play: 13 * card + rate, with the cards selected before
            c, r = a // RATES, a % RATES
            count = chosen[g] + 1
            flags = after[int(revolution[g]), int(jack_back[g]), int(bound[g]), cur_rate[g],
                          count, r]
            revolution[g], jack_back[g], bound[g] = flags >= 4, flags & 2 == 2, flags & 1 == 1
            # the player's tracked cards may now be on the field
            sets.known_before[g] = sets.known[g, s]
            sets.known[g, s] = 0
            for owner in range(players):
                sets.own_held[g, owner, s] = 0
            selected[g, c] = True
            j = 0
            for x in range(0 if chosen[g] else c, c + 1):  # the selected cards are below c
                if selected[g, x]:
                    selected[g, x] = False
                    where[g, x] = field_at
                    held[g, s] &= ~(ONE << np.uint64(x))
                    sets.field_by[g, s] |= ONE << np.uint64(x)
                    played_by[g, x] = s
                    field_list[g, field_cards[g] + j] = x
                    cur_cards[g, j] = x
                    j += 1
            chosen[g], last[g] = 0, -1
            size[g, s] -= count
            cur_seat[g], cur_rate[g], cur_count[g] = s, r, count
            field_cards[g] += count
            field_plays[g] += 1
            to_move[g] = _next(s, players)
            turns[g] += 1
            if not final_doubt and size[g, s] == 0:  # L10: out at once
                _end(g, s, size, places, done, winner, rewards, ended)
                continue
        elif a < give_base:  # a select (O1, O7): no action of the core yet
            c = a - select_base
            selected[g, c] = True
            chosen[g] += 1
            last[g] = c
            continue
        elif a < pass_id:  # an O7 give: the selected cards and this one
            c = a - give_base
            k = owed.next[g]
            receiver = owed.receiver[g, k]
            selected[g, c] = True
            gift = np.uint64(0)
            for x in range(0 if chosen[g] else c, c + 1):
                if selected[g, x]:
                    selected[g, x] = False
                    where[g, x] = receiver
                    gift |= ONE << np.uint64(x)
            count = chosen[g] + 1
            chosen[g], last[g] = 0, -1
            held[g, s] &= ~gift
            held[g, receiver] |= gift
            size[g, s] -= count
            size[g, receiver] += count
            for o in range(players):  # the giver knows where its cards went, none other
                for h in range(players):
                    sets.own_held[g, o, h] &= ~gift
            sets.own_held[g, s, receiver] |= gift
            owed.next[g] = k + 1
            to_move[g] = (owed.giver[g, k + 1] if k + 1 < owed.total[g]
                          else _starter(g, where, players, l4_order))
            continue
        elif a == pass_id:
            if stock[g] > 0:  # L6: draw at once, if the stock is not empty
                _draw(g, s, 1, where, held, size, ring, bottom, stock, flushed, blocks,
                      sets)
            nxt = _next(s, players)
            if nxt == cur_seat[g]:  # L7: all passed: flush, the current player leads
                state = _flush(g, False, state, stock_at, lead, where, ring, bottom, stock,
                       played_by, field_list, cur_cards, cur_seat, cur_rate, cur_count,
                       field_cards, field_plays, jack_back, bound, flushed, blocks, sets)
            to_move[g] = nxt
            turns[g] += 1
        elif a == pass_id + 1:  # doubt
            d = cur_seat[g]
            truthful = True  # L9: every card of the current play is of the declared rate
            for j in range(cur_count[g]):
                truthful = truthful and card_rate[cur_cards[g, j]] == cur_rate[g]
            # what d certainly held and did not play is still held
            sets.known[g, d] |= sets.known_before[g] & held[g, d]
            went_out = size[g, d] == 0
            count = field_cards[g]  # N: the whole field
            state = _flush(g, True, state, stock_at, lead, where, ring, bottom, stock, played_by,
                   field_list, cur_cards, cur_seat, cur_rate, cur_count, field_cards,
                   field_plays, jack_back, bound, flushed, blocks, sets)
            _draw(g, s if truthful else d, count, where, held, size, ring, bottom, stock,
                  flushed, blocks, sets)
            to_move[g] = d if truthful else s
            turns[g] += 1
            if truthful and went_out:  # L10: the player who went out wins
                _end(g, d, size, places, done, winner, rewards, ended)
                continue
        else:  # accept (L10): the play stands; its player wins
            turns[g] += 1
            _end(g, cur_seat[g], size, places, done, winner, rewards, ended)
            continue
        if turn_limit and turns[g] >= turn_limit:  # L11
            _end(g, -1, size, places, done, winner, rewards, ended)
    stream[0] = state
    return -1, live, int(ended.sum())


@njit(cache=True, nogil=True, error_model="numpy")
def _legal_id(a: int, bits: np.uint64, chosen: int, need: int, rates: np.uint64,
              passes: bool, doubts: bool, accepts: bool, gives: bool, select_base: int,
              give_base: int, pass_id: int) -> bool:
    """Whether id ``a`` is one :func:`legal_mask` allows, for a player holding ``bits``
    above its last selected card, having selected ``chosen`` cards, with ``need``,
    ``rates`` and the moves of :func:`legal_moves`. Scalars only: a call passed arrays
    costs their reference counts, several times the check itself."""
    if pass_id <= a < pass_id + 3:
        may = passes if a == pass_id else (doubts if a == pass_id + 1 else accepts)
        return chosen == 0 and may
    if not 0 <= a < pass_id:
        return False
    c = a // RATES if a < select_base else a - (select_base if a < give_base else give_base)
    if not (gives or rates != 0) or not (bits >> np.uint64(c)) & ONE:
        return False
    finish, selects = _completion(need, chosen, _count(bits))
    if a < select_base:
        return finish and bool((rates >> np.uint64(a % RATES)) & ONE)
    if a >= give_base:
        return finish and gives
    # a select: its place among the held cards above the last selected one
    return _count(bits & ((ONE << np.uint64(c)) - ONE)) < selects
