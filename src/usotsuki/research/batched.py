"""N Bluff games in lockstep, with numpy (pgx's idea: many games at once beat a fast engine
playing one). Every game has the same :class:`~usotsuki.bluff.BluffRules`.

Actions are positions in the deck's calls (:func:`usotsuki.bluff.calls_for`, weakest
first), and ``K = len(calls)`` is a challenge. Each :meth:`BatchedBluff.step` takes one
action per game; games that are over take none (``done``), or start again with
``autoreset``.

The rules in array form, each from the core's own tables (nothing re-derived):

- B5, B7, B10 (B13): the legal calls are those at or after ``first_stronger`` of the
  current call (the core's :class:`~usotsuki.bluff.CallSet`), plus a challenge once
  there is a call;
- B8: a call's requirements (:func:`usotsuki.bluff.requirements`: groups of cards, how
  many of each the players must hold together) as two incidence matrices;
- B9, B11, B2, B4, B12: the loser, a loss or elimination, the next first caller
  clockwise from the loser, the end when one player remains;
- B3 (B13): every round a fresh shuffle of the short or full deck, ``losses + 1`` cards
  to each seat still in.

What a learner needs comes for all games at once: :meth:`BatchedBluff.observe` (each
seat to move's observation, the tensor of :class:`~usotsuki.envs.bluff_codec.BluffCodec`
that the Gymnasium and PettingZoo environments give), :meth:`BatchedBluff.legal_mask`,
and after each step ``rewards`` (n, P): the environments' rewards by place
(:func:`~usotsuki.envs.deals.place_returns`) in the games that just ended, zero elsewhere.

``tests/research/test_batched.py`` replays batched games through the scalar core and
checks every step: the mover, the legal actions, each call, the loser, eliminations,
the standings, the rewards and the observations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from usotsuki.bluff import Action, BluffRules, Call, calls_for, requirements
from usotsuki.bluff.actions import CHALLENGE
from usotsuki.cards import DECK, Card
from usotsuki.envs.bluff_codec import BluffCodec
from usotsuki.envs.deals import place_returns

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
ObsArray = npt.NDArray[np.float32]


def place_values(players: int) -> FloatArray:
    """The reward of the ``k``-th of ``players`` places, one seat to a place
    (:func:`~usotsuki.envs.deals.place_returns`: +1 first to -1 last)."""
    return np.array(place_returns([(s,) for s in range(players)], players))


@dataclass
class RoundLog:
    """One game's rounds as dealt and played (kept only with ``log=True``)."""

    hands: list[tuple[Card, ...]]
    actions: list[Action] = field(default_factory=list)


class BatchedBluff:
    """``n`` Bluff games of ``rules`` played in lockstep; see the module docstring."""

    def __init__(self, rules: BluffRules, n: int, seed: int | None = None,
                 autoreset: bool = False, log: bool = False) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        self.rules, self.n, self.autoreset, self.log = rules, n, autoreset, log
        self.rng = np.random.default_rng(seed)
        deck = calls_for(rules.ranks)
        self.calls: tuple[Call, ...] = deck.calls
        self.K = len(self.calls)
        self.players = rules.players
        self.first_card = 4 * rules.lowest_rank  # B13: the deck's cards are DECK[first_card:]
        self.D = rules.deck_size
        # B5, B7: first_stronger[k + 1] is where the calls stronger than call k start;
        # first_stronger[0] (no call yet) is 0.
        self.first_stronger = np.array(
            [0] + [deck.first_stronger[c.index] for c in self.calls], dtype=np.int64)
        # The legal actions after each current call (row k + 1; row 0: no call yet): the
        # calls from first_stronger on, and a challenge once there is a call (B5).
        self.mask_after = np.arange(self.K + 1)[None, :] >= self.first_stronger[:, None]
        self.mask_after[1:, self.K] = True
        self.mask_after[0, self.K] = False
        # B8: each call's requirement groups as card lists (padded with the deck size, a
        # column that is never held) and how many of each group must be held.
        self.group = np.full((2, self.K, 5), self.D, dtype=np.int64)
        self.need = np.zeros((2, self.K), dtype=np.int64)
        for k, call in enumerate(self.calls):
            for g, (cards, need) in enumerate(requirements(call)):
                self.group[g, k, :len(cards)] = [c - self.first_card for c in cards]
                self.need[g, k] = need
        # The next seat still in, clockwise from each seat, for each set of seats in
        # (bitmask): B4, B5.
        p = self.players
        self.next_seat = np.zeros((1 << p, p), dtype=np.int64)
        for bits in range(1, 1 << p):
            for seat in range(p):
                nxt = (seat + 1) % p
                while not bits >> nxt & 1:
                    nxt = (nxt + 1) % p
                self.next_seat[bits, seat] = nxt
        self.codec = BluffCodec(rules)
        self.observation_size = self.codec.observation_size
        self.num_actions = self.K + 1
        self._places = place_values(p)
        self.decisions = 0
        self.games_finished = 0
        self.last_loser = np.full(n, -1, dtype=np.int64)
        self.rewards = np.zeros((n, p), dtype=np.float64)
        self.reset()

    # -- state ------------------------------------------------------------------------
    def reset(self, which: BoolArray | None = None) -> None:
        """New games (all, or where ``which``): round 1 dealt, its first caller to move."""
        n, p = self.n, self.players
        if which is None:
            self.losses = np.zeros((n, p), dtype=np.int64)
            self.active = np.ones((n, p), dtype=bool)
            self.active_bits = np.full(n, (1 << p) - 1, dtype=np.int64)
            self.out_order = np.full((n, p), -1, dtype=np.int64)  # B12: the k-th out
            self.n_out = np.zeros(n, dtype=np.int64)
            self.done = np.zeros(n, dtype=bool)
            self.last = np.full(n, -1, dtype=np.int64)  # current call, -1 for none
            self.caller = np.full(n, -1, dtype=np.int64)
            # The round in play's calls, in order: call_k[i, :n_calls[i]] by call_seat.
            self.n_calls = np.zeros(n, dtype=np.int64)
            self.call_k = np.zeros((n, 16), dtype=np.int64)
            self.call_seat = np.zeros((n, 16), dtype=np.int64)
            self.dealer = np.full(n, self.rules.dealer, dtype=np.int64)
            # The seat holding each card (-1: nobody), and a last column nobody holds.
            self.owner = np.full((n, self.D + 1), -1, dtype=np.int64)
            # B4: round 1's first caller sits left of the dealer.
            self.to_move = np.full(n, (self.rules.dealer + 1) % p, dtype=np.int64)
            self.logs: list[list[RoundLog]] = [[] for _ in range(n)]
            self._deal(np.arange(n))
            return
        idx = np.flatnonzero(which)
        self._restart(idx)
        self._deal(idx)

    def _restart(self, idx: IntArray) -> None:
        p = self.players
        self.losses[idx] = 0
        self.active[idx] = True
        self.active_bits[idx] = (1 << p) - 1
        self.out_order[idx] = -1
        self.n_out[idx] = 0
        self.done[idx] = False
        self.last[idx] = -1
        self.caller[idx] = -1
        self.n_calls[idx] = 0
        self.dealer[idx] = self.rules.dealer
        self.to_move[idx] = (self.rules.dealer + 1) % p  # B4
        if self.log:
            for i in idx:
                self.logs[i] = []

    def _deal(self, idx: IntArray) -> None:
        """B3 (B13): shuffle the deck for each game ``idx``; deal ``losses + 1`` cards to
        each seat still in, in seat order."""
        if idx.size == 0:
            return
        sizes = np.where(self.active[idx], self.losses[idx] + 1, 0)  # (k, P)
        total = sizes.sum(axis=1)
        # A uniformly random order of the deck per game (B3: a fresh shuffle).
        order = np.argsort(self.rng.random((idx.size, self.D)), axis=1)
        # The first ``total`` cards of each sequence go to the seats in order.
        rows = np.repeat(np.arange(idx.size), total)
        cols = np.arange(rows.size) - np.repeat(np.cumsum(total) - total, total)
        seats = np.repeat(np.tile(np.arange(self.players), idx.size), sizes.ravel())
        cards = order[rows, cols]
        self.owner[idx] = -1
        self.owner[idx[rows], cards] = seats
        if self.log:
            for i in idx:
                hands = [tuple(DECK[self.first_card + c]
                               for c in np.flatnonzero(self.owner[i] == s))
                         for s in range(self.players)]
                self.logs[i].append(RoundLog(hands))

    def legal_mask(self) -> BoolArray:
        """(n, K + 1): the legal actions of each game's player to move (none when done)."""
        mask = self.mask_after[self.last + 1]
        mask[self.done] = False
        return mask

    def hands(self, seat: int) -> BoolArray:
        """(n, D): the cards ``seat`` holds in each game (the deck's cards, lowest first)."""
        return np.asarray(self.owner[:, :self.D] == seat)

    def call_true(self, games: IntArray) -> BoolArray:
        """B8: is the current call of each game in ``games`` true with all cards in play."""
        k = self.last[games]
        rows = games[:, None]
        owner = self.owner
        ok = (owner[rows, self.group[0, k]] >= 0).sum(axis=1) >= self.need[0, k]
        ok &= (owner[rows, self.group[1, k]] >= 0).sum(axis=1) >= self.need[1, k]
        return np.asarray(ok, dtype=bool)

    # -- acting -----------------------------------------------------------------------
    def random_actions(self) -> IntArray:
        """A uniformly random legal action per game (K: challenge; -1 where done)."""
        start = self.first_stronger[self.last + 1]
        count = self.K - start + (self.last >= 0)
        a = start + (self.rng.random(self.n) * count).astype(np.int64)
        return np.where(self.done, -1, a)

    def sample(self, probs: FloatArray) -> IntArray:
        """An action per game drawn from ``probs`` (n, K + 1) restricted to the legal
        actions (renormalised; uniform where ``probs`` gives them no weight)."""
        mask = self.legal_mask()
        w = np.where(mask, probs, 0.0)
        total = w.sum(axis=1, keepdims=True)
        w = np.where(total > 0, w, mask.astype(float))
        cum = np.cumsum(w, axis=1)
        u = self.rng.random(self.n)[:, None] * cum[:, -1:]
        a = np.minimum((cum <= u).sum(axis=1), self.K)
        return np.where(self.done, -1, a)

    def step(self, actions: IntArray) -> BoolArray:
        """Apply one action per game (ignored where done). Returns where a game ended.

        :raises ValueError: if an action is illegal in a game still in play (nothing changes).
        """
        actions = np.asarray(actions, dtype=np.int64)
        live = ~self.done
        # B5, B7, B10: a call at or after first_stronger; a challenge once there is a call.
        start = self.first_stronger[self.last + 1]
        legal = np.where(actions == self.K, self.last >= 0,
                         (actions >= start) & (actions < self.K))
        bad = live & ~legal
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"game {i}: action {int(actions[i])} is not legal")
        self.decisions += int(live.sum())
        if self.log:
            for g in np.flatnonzero(live).tolist():
                a = int(actions[g])
                self.logs[g][-1].actions.append(CHALLENGE if a == self.K else self.calls[a])
        calling = np.flatnonzero(live & (actions < self.K))
        challenging = np.flatnonzero(live & (actions == self.K))
        # B5: a call becomes the current call; the next player clockwise acts.
        self.last[calling] = actions[calling]
        self.caller[calling] = self.to_move[calling]
        self._record_calls(calling, actions[calling])
        self.to_move[calling] = self.next_seat[self.active_bits[calling],
                                               self.to_move[calling]]
        ended = np.zeros(self.n, dtype=bool)
        self.rewards[:] = 0.0
        if challenging.size:
            ended, again = self._challenge(challenging)
            if self.autoreset and ended.any():
                restart = np.flatnonzero(ended)
                self._restart(restart)
                again = np.concatenate([again, restart])
            self._deal(again)
        return ended

    def _record_calls(self, g: IntArray, calls: IntArray) -> None:
        at = self.n_calls[g]
        if at.size and at.max() >= self.call_k.shape[1]:  # room for longer rounds
            more = np.zeros_like(self.call_k)
            self.call_k = np.concatenate([self.call_k, more], axis=1)
            self.call_seat = np.concatenate([self.call_seat, more], axis=1)
        self.call_k[g, at] = calls
        self.call_seat[g, at] = self.to_move[g]
        self.n_calls[g] += 1

    def _challenge(self, g: IntArray) -> tuple[BoolArray, IntArray]:
        """B9, B11, B2, B12, B4 for the games ``g`` where the player to move challenged;
        returns where a game ended and the games whose next round is due."""
        true = self.call_true(g)
        loser = np.where(true, self.to_move[g], self.caller[g])  # B9
        self.last_loser[g] = loser
        out = self.losses[g, loser] + 1 >= self.rules.max_cards  # B2
        self.losses[g[~out], loser[~out]] += 1  # B11
        go, lo = g[out], loser[out]
        self.active[go, lo] = False
        self.active_bits[go] &= ~(1 << lo)
        self.out_order[go, lo] = self.n_out[go]
        self.n_out[go] += 1
        over = (self.active_bits[g] & (self.active_bits[g] - 1)) == 0  # B12: one left
        ended = np.zeros(self.n, dtype=bool)
        ended[g[over]] = True
        self.done[g[over]] = True
        # B12: the winner first, then the eliminated, last out first
        won = g[over]
        place = np.where(self.active[won], 0, self.players - 1 - self.out_order[won])
        self.rewards[won] = self._places[place]
        self.games_finished += int(over.sum())
        cont, cl = g[~over], loser[~over]
        # B4: the loser deals; the next player still in, clockwise from the loser, calls.
        self.to_move[cont] = self.next_seat[self.active_bits[cont], cl]
        self.dealer[g] = loser
        self.last[g] = -1
        self.caller[g] = -1
        self.n_calls[g] = 0
        return ended, cont

    def observe(self, seats: IntArray | None = None) -> ObsArray:
        """(n, observation_size): each game's observation for ``seats`` (default: the
        seat to move), the codec's tensor of that seat's view (seats relative to it)."""
        n, p, d = self.n, self.players, self.D
        me = self.to_move if seats is None else np.asarray(seats, dtype=np.int64)
        live = ~self.done
        out = np.zeros((n, self.observation_size), dtype=np.float32)
        rows = np.arange(n)
        # hand: the seat's cards (none once the game is over: no round is dealt)
        out[:, :d] = (self.owner[:, :d] == me[:, None]) & live[:, None]
        rel = (np.arange(p)[None, :] - me[:, None]) % p  # (n, P): each seat's row
        width = self.codec.hand_limit + 1
        sizes = np.where(self.active, self.losses + 1, 0)
        out[rows[:, None], d + rel * width + sizes] = 1
        i = d + p * width
        out[rows[live], i + (self.to_move[live] - me[live]) % p] = 1
        i += p
        out[rows, i + (self.dealer - me) % p] = 1
        i += p
        count = self.n_calls
        g = np.repeat(rows, count)
        j = np.arange(g.size) - np.repeat(np.cumsum(count) - count, count)
        out[g, i + self.call_k[g, j] * p + (self.call_seat[g, j] - me[g]) % p] = 1
        return out

    def standings(self, i: int) -> tuple[tuple[int, ...], ...] | None:
        """B12 for game ``i``: the winner, then the eliminated, last out first."""
        if not self.done[i]:
            return None
        winner = int(np.flatnonzero(self.active[i])[0])
        out = sorted(np.flatnonzero(self.out_order[i] >= 0), key=lambda s: -self.out_order[i, s])
        return ((winner,), *((int(s),) for s in out))
