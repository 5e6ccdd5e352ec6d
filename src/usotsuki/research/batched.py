"""N Bluff games in lockstep (pgx's idea: many games at once beat a fast engine playing
one): the games' state in numpy arrays, each step's per-game work in the Numba loops of
:mod:`usotsuki.research.batched_kernels`. Every game has the same
:class:`~usotsuki.bluff.BluffRules`.

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
seat to move's observation, the values of the :class:`~usotsuki.envs.bluff_codec.BluffCodec`
tensor that the Gymnasium and PettingZoo environments give, as int8: every one is 0 or 1),
:meth:`BatchedBluff.legal_mask`,
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
from usotsuki.research import batched_kernels as kernels

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
ObsArray = npt.NDArray[np.int8]
OBS_DTYPE = np.int8  # every value of the observation is 0 or 1 (Gymnasium's MultiBinary)


def as_actions(actions: npt.ArrayLike, n: int) -> IntArray:
    """``actions`` as one int64 id per game; :raises ValueError: for another shape."""
    out = np.ascontiguousarray(actions, dtype=np.int64)
    if out.shape != (n,):
        raise ValueError(f"expected one action per game, shape ({n},), not {out.shape}")
    return out


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
        # where the codec's pieces start: hand, hand_sizes, to_move, dealer, calls
        self._sizes_at = self.D
        self._to_move_at = self.D + p * (self.codec.hand_limit + 1)
        self._dealer_at = self._to_move_at + p
        self._calls_at = self._dealer_at + p
        self._seats = np.arange(p)
        self._rel = (self._seats[:, None] - self._seats[None, :]) % p  # [seat, observer]
        self._rows = np.arange(n)
        # Every seat's observation but its to_move piece (written when observed), kept
        # up to date by the steps: a call sets one value per seat; a round's start or a
        # game's end rewrites the game's rows.
        self.views = np.zeros((n, p, self.observation_size), dtype=OBS_DTYPE)
        self.num_actions = self.K + 1
        self._places = place_values(p)
        self.decisions = 0
        self.games_finished = 0
        self.last_loser = np.full(n, -1, dtype=np.int64)
        self.rewards = np.zeros((n, p), dtype=np.float64)
        self.reset()

    # -- state ------------------------------------------------------------------------
    def reseed(self, seed: int | None) -> None:
        """Start the engine's generator again from ``seed`` (the next deals follow it)."""
        self.rng = np.random.default_rng(seed)

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
            self.dealer = np.full(n, self.rules.dealer, dtype=np.int64)
            # The seat holding each card (-1: nobody), and a last column nobody holds.
            self.owner = np.full((n, self.D + 1), -1, dtype=np.int8)
            # B4: round 1's first caller sits left of the dealer.
            self.to_move = np.full(n, (self.rules.dealer + 1) % p, dtype=np.int64)
            self.logs: list[list[RoundLog]] = [[] for _ in range(n)]
            self._new_rounds(self._rows)
            return
        idx = np.flatnonzero(which)
        self._restart(idx)
        self._new_rounds(idx)

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
        self.dealer[idx] = self.rules.dealer
        self.to_move[idx] = (self.rules.dealer + 1) % p  # B4
        if self.log:
            for i in idx:
                self.logs[i] = []

    def _new_rounds(self, idx: IntArray) -> None:
        """B3 (B13) for the games ``idx`` still on: a fresh shuffle of the deck, ``losses +
        1`` cards to each seat still in, in seat order; every seat's observation of the
        games ``idx`` rewritten (no call in play)."""
        if idx.size == 0:
            return
        # at most losses + 1 cards to each seat (fewer where a seat is out)
        most = int(self.losses[idx].sum(axis=1).max()) + self.players
        kernels.new_rounds(idx, self.rng.random((idx.size, most)), self.done, self.active,
                           self.losses, self.dealer, self.owner, self.views,
                           self.codec.hand_limit + 1, self._sizes_at, self._dealer_at)
        if self.log:
            for i in idx[~self.done[idx]]:
                hands = [tuple(DECK[self.first_card + c]
                               for c in np.flatnonzero(self.owner[i] == s))
                         for s in range(self.players)]
                self.logs[i].append(RoundLog(hands))

    def legal_mask(self) -> BoolArray:
        """(n, K + 1): the legal actions of each game's player to move (none when done)."""
        mask: BoolArray = self.mask_after.take(self.last + 1, axis=0)
        if self.done.any():
            mask[self.done] = False
        return mask

    def hands(self, seat: int) -> BoolArray:
        """(n, D): the cards ``seat`` holds in each game (the deck's cards, lowest first)."""
        return np.asarray(self.owner[:, :self.D] == seat)

    def call_true(self, games: IntArray) -> BoolArray:
        """B8: is the current call of each game in ``games`` true with all cards in play."""
        result: BoolArray = kernels.calls_true(games, self.last[games], self.owner, self.group,
                                               self.need)
        return result

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
        actions = as_actions(actions, self.n)
        live = ~self.done
        bad = kernels.first_illegal(actions, live, self.last, self.first_stronger, self.K)
        if bad >= 0:
            raise ValueError(f"game {bad}: action {int(actions[bad])} is not legal")
        self.decisions += int(live.sum())
        if self.log:
            for g in np.flatnonzero(live).tolist():
                a = int(actions[g])
                self.logs[g][-1].actions.append(CHALLENGE if a == self.K else self.calls[a])
        ended = np.zeros(self.n, dtype=bool)
        self.rewards[:] = 0.0
        self.games_finished += kernels.act(
            actions, live, self.K, self.rules.max_cards, self.next_seat, self.group,
            self.need, self._places, self._calls_at, self.last, self.caller, self.to_move,
            self.dealer, self.losses, self.active, self.active_bits, self.out_order,
            self.n_out, self.done, self.last_loser, self.owner, self.views, self.rewards,
            ended)
        challenged = np.flatnonzero(live & (actions == self.K))
        if self.autoreset and ended.any():
            self._restart(np.flatnonzero(ended))
        # every challenged game: its next round, or (over, not restarted) its final views
        self._new_rounds(challenged)
        return ended

    def observe(self, seats: IntArray | None = None) -> ObsArray:
        """(n, observation_size), int8: each game's observation for ``seats`` (default:
        the seat to move), the codec's tensor of that seat's view (seats relative to it)."""
        n, p = self.n, self.players
        live = ~self.done
        if seats is None:
            out = self.views.reshape(n * p, -1).take(self._rows * p + self.to_move, axis=0)
            out[:, self._to_move_at] = live  # the seat to move is the seat itself
            return out
        me = np.asarray(seats, dtype=np.int64)
        out = self.views.reshape(n * p, -1).take(self._rows * p + me, axis=0)
        rows = self._rows[live]
        out[rows, self._to_move_at + (self.to_move[rows] - me[rows]) % p] = 1
        return out

    def standings(self, i: int) -> tuple[tuple[int, ...], ...] | None:
        """B12 for game ``i``: the winner, then the eliminated, last out first."""
        if not self.done[i]:
            return None
        winner = int(np.flatnonzero(self.active[i])[0])
        out = sorted(np.flatnonzero(self.out_order[i] >= 0), key=lambda s: -self.out_order[i, s])
        return ((winner,), *((int(s),) for s in out))
