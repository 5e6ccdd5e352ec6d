"""The batched Bluff engine's per-game loops, compiled with Numba: the parts of a step
that touch a few values of each game among many (a call, a challenge, a deal, an
observation's rewrite), where numpy's whole-array operations would pay for every card of
every game. :class:`~usotsuki.research.batched.BatchedBluff` holds the tables
(from the core) and the state; these functions only follow them.

Randomness comes from the engine's numpy generator (``uniforms``), so a seed replays
the same games.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
ViewArray = npt.NDArray[np.int8]
SeatArray = npt.NDArray[np.int8]  # a seat per card (-1: nobody): small, so fast to scan


@njit(cache=True, nogil=True)
def new_rounds(games: IntArray, uniforms: FloatArray, done: BoolArray, active: BoolArray,
               losses: IntArray, dealer: IntArray, owner: SeatArray, views: ViewArray,
               width: int, sizes_at: int, dealer_at: int) -> None:
    """Each game ``games[k]`` has no call in play (a round is due, or the game is over).

    - B3 (B13), where the game goes on: the first cards of a uniformly random order of
      the deck (a partial Fisher-Yates shuffle driven by ``uniforms[k]``) go to the seats
      in seat order, ``losses + 1`` to each seat still in; ``owner`` (games, deck + 1) is
      the seat holding each card, -1 for none.
    - Every seat's observation is rewritten: its hand (none once the game is over), every
      seat's hand size (0 once out) and the dealer, seats relative to the observer; the
      to_move piece is left 0 (written when observed)."""
    players = views.shape[1]
    deck = owner.shape[1] - 1
    order = np.empty(deck, dtype=np.int64)
    for k in range(games.size):
        g = games[k]
        views[g] = 0
        if not done[g]:
            for c in range(deck):
                order[c] = c
                owner[g, c] = -1
            j = 0
            for seat in range(players):
                if not active[g, seat]:
                    continue
                for _ in range(losses[g, seat] + 1):
                    r = j + int(uniforms[k, j] * (deck - j))
                    if r >= deck:  # a uniform of 1 - 2**-53 rounded up
                        r = deck - 1
                    order[j], order[r] = order[r], order[j]
                    owner[g, order[j]] = seat
                    views[g, seat, order[j]] = 1
                    j += 1
        for me in range(players):
            for seat in range(players):
                size = losses[g, seat] + 1 if active[g, seat] else 0
                views[g, me, sizes_at + (seat - me) % players * width + size] = 1
            views[g, me, dealer_at + (dealer[g] - me) % players] = 1


@njit(cache=True, nogil=True)
def call_true(g: int, call: int, owner: SeatArray, group: IntArray, need: IntArray) -> bool:
    """B8: is ``call`` true with all cards in play in game ``g``: for each of its
    requirement groups (``group[j, call]``, cards padded with the deck size, a column
    nobody holds), at least ``need[j, call]`` of its cards are held."""
    for j in range(group.shape[0]):
        held = 0
        for c in group[j, call]:
            if owner[g, c] >= 0:
                held += 1
        if held < need[j, call]:
            return False
    return True


@njit(cache=True, nogil=True)
def calls_true(games: IntArray, calls: IntArray, owner: SeatArray, group: IntArray,
               need: IntArray) -> BoolArray:
    """:func:`call_true` of call ``calls[k]`` in game ``games[k]``, for each ``k``."""
    out = np.empty(games.size, dtype=np.bool_)
    for k in range(games.size):
        out[k] = call_true(games[k], calls[k], owner, group, need)
    return out


@njit(cache=True, nogil=True)
def act(actions: IntArray, live: BoolArray, challenge: int, max_cards: int,
        next_seat: IntArray, group: IntArray, need: IntArray, places: FloatArray,
        calls_at: int, last: IntArray, caller: IntArray, to_move: IntArray,
        dealer: IntArray, losses: IntArray, active: BoolArray, active_bits: IntArray,
        out_order: IntArray, n_out: IntArray, done: BoolArray, last_loser: IntArray,
        owner: SeatArray, views: ViewArray, rewards: FloatArray, ended: BoolArray) -> int:
    """One legal action per live game (``challenge``: a challenge, else a call index);
    returns how many games ended, marked in ``ended`` with their ``rewards`` by place.

    - B5: a call becomes the current call (its value set in every seat's observation),
      the next seat still in acts;
    - B8, B9, B11, B2, B12, B4: a challenge finds the loser, who loses a card or is out;
      with one seat left the game is over, else the loser deals and the next seat still
      in calls (the deal is the caller's to make)."""
    players = active.shape[1]
    finished = 0
    for g in range(actions.size):
        if not live[g]:
            continue
        a, seat = actions[g], to_move[g]
        if a != challenge:
            last[g] = a
            caller[g] = seat
            for me in range(players):
                views[g, me, calls_at + a * players + (seat - me) % players] = 1
            to_move[g] = next_seat[active_bits[g], seat]
            continue
        loser = seat if call_true(g, last[g], owner, group, need) else caller[g]  # B9
        last_loser[g] = loser
        if losses[g, loser] + 1 >= max_cards:  # B2: out
            active[g, loser] = False
            active_bits[g] &= ~(1 << loser)
            out_order[g, loser] = n_out[g]
            n_out[g] += 1
        else:
            losses[g, loser] += 1  # B11
        bits = active_bits[g]
        if bits & (bits - 1) == 0:  # B12: one seat left; the eliminated, last out first
            done[g] = True
            ended[g] = True
            finished += 1
            for s in range(players):
                place = 0 if active[g, s] else players - 1 - out_order[g, s]
                rewards[g, s] = places[place]
        else:
            to_move[g] = next_seat[bits, loser]  # B4
        dealer[g] = loser
        last[g] = -1
        caller[g] = -1
    return finished


@njit(cache=True, nogil=True)
def first_illegal(actions: IntArray, live: BoolArray, last: IntArray,
                  first_stronger: IntArray, challenge: int) -> int:
    """B5, B7, B10: the first live game whose action is neither a call at or after
    ``first_stronger`` of its current call nor a challenge of a call; -1 if none."""
    for g in range(actions.size):
        if not live[g]:
            continue
        a = actions[g]
        ok = last[g] >= 0 if a == challenge else first_stronger[last[g] + 1] <= a < challenge
        if not ok:
            return g
    return -1
