"""CFR+ and exact best responses on a heads-up Bluff round (:mod:`usotsuki.research.round`),
vectorised over hands with numpy.

**The tree as bitmasks.** Calls must rise strictly (B5, B7), so a round's call sequence is
a subset of the tree's ``m`` calls, and a public node is a bitmask ``B`` of the calls made
(``B = 0``: nobody has called). Seat ``popcount(B) % 2`` acts at ``B``: it challenges the
last call (``B != 0``; B9 ends the round) or calls ``j`` above the last call ``hb(B)``
(the highest bit), reaching ``B + 2^j``. So the nodes whose last call is ``j`` are exactly
``[2^j, 2^(j+1))``, each the child of ``B - 2^j``: a pass over ``j`` moves whole blocks
of nodes at once (forward: parents before children; backward: children before parents).
An information state is (node, own hand by rank); arrays are ``(2^m, hands)`` per seat.

A strategy is stored per seat as two arrays: ``call[c, h]``, the probability of the call
edge into node ``c`` (from its parent, where that seat acts), and ``challenge[B, h]``.
Where the seat does not act both hold 1, so reach and value passes multiply through.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from usotsuki.research.round import RoundGame

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Tree:
    """The bitmask structure of a round's public tree (see the module docstring)."""

    m: int
    actor: IntArray = field(repr=False)  # (N,): seat to act at each node
    parent: IntArray = field(repr=False)  # (N,): B - 2^hb(B) (root: 0)
    actions: IntArray = field(repr=False)  # (N,): legal actions at each node

    @classmethod
    def build(cls, m: int) -> Tree:
        n = 1 << m
        nodes = np.arange(n, dtype=np.int64)
        pop = np.zeros(n, dtype=np.int64)
        high = np.full(n, -1, dtype=np.int64)
        for j in range(m):
            pop[1 << j:1 << (j + 1)] = pop[:1 << j] + 1
            high[1 << j:1 << (j + 1)] = j
        parent = np.where(nodes > 0, nodes - (1 << np.maximum(high, 0)), 0)
        actions = (m - 1 - high) + (nodes > 0)  # calls above the last one, and challenge
        return cls(m, pop % 2, parent, actions)

    @property
    def size(self) -> int:
        return 1 << self.m

    def block(self, j: int) -> slice:
        """The nodes whose last call is ``j``."""
        return slice(1 << j, 1 << (j + 1))

    def sum_children(self, x: FloatArray) -> FloatArray:
        """(N, H): the sum over each node's call children of ``x`` (indexed by child)."""
        out = np.zeros_like(x)
        for j in range(self.m):
            out[:1 << j] += x[self.block(j)]
        return out


@dataclass
class Strategy:
    """A behaviour strategy for both seats (see the module docstring for the layout)."""

    call: list[FloatArray]
    challenge: list[FloatArray]
    forfeit: list[FloatArray] | None = None  # optional: P(a call the tree lacks), loses

    def copy(self) -> Strategy:
        return Strategy([a.copy() for a in self.call], [a.copy() for a in self.challenge],
                        None if self.forfeit is None else [a.copy() for a in self.forfeit])


def _terminal(game: RoundGame, tree: Tree, seat: int, opp_reach: FloatArray) -> FloatArray:
    """(N, H_seat): the counterfactual value to ``seat`` of a challenge at each node,
    given the opponent's reach times its challenge probability (B8, B9)."""
    out = np.zeros((tree.size, len(game.hands[seat])))
    for j in range(tree.m):
        blk = tree.block(j)
        a = game.payoff[j] if seat == 0 else game.payoff[j].T  # (H_seat, H_opp)
        # The caller of call j is the seat that moved into the node (1 - actor): it wins
        # when the call is true (B9). Seat 0 is the caller where actor == 1.
        caller_is_me = (tree.actor[blk] != seat)
        sign = np.where(caller_is_me, 1.0, -1.0)
        out[blk] = sign[:, None] * (opp_reach[blk] @ a.T)
    return out


def _reach(tree: Tree, call: FloatArray) -> FloatArray:
    reach = np.empty_like(call)
    reach[0] = 1.0
    for j in range(tree.m):
        blk = tree.block(j)
        reach[blk] = reach[:1 << j] * call[blk]
    return reach


def _forfeit_value(tree: Tree, game: RoundGame, seat: int, opp_reach: FloatArray,
                   opp_forfeit: FloatArray) -> FloatArray:
    """(N, H_seat): +1 times chance for each opponent hand that made a call the tree lacks
    (an impossible call: ``seat`` challenges it and wins, B9)."""
    w = game.chance if seat == 0 else game.chance.T  # (H_seat, H_opp)
    return (opp_reach * opp_forfeit) @ w.T


def values(game: RoundGame, tree: Tree, s: Strategy, seat: int,
           best_response: bool = False) -> FloatArray:
    """(N, H_seat): counterfactual values of ``seat``'s information states, following
    ``s`` for both seats, or with ``seat`` best-responding (the max at its nodes)."""
    opp = 1 - seat
    opp_reach = _reach(tree, s.call[opp])
    tv = _terminal(game, tree, seat, opp_reach * s.challenge[opp])
    acting = (tree.actor == seat)[:, None]
    extra = np.zeros_like(tv) if s.forfeit is None else \
        _forfeit_value(tree, game, seat, opp_reach, s.forfeit[opp])
    if best_response:
        val = np.where(acting, tv, tv + extra)
        if seat == 0:
            val[0] = -np.inf  # B5: the first caller must call
        for j in reversed(range(tree.m)):
            child = val[tree.block(j)]
            par = val[:1 << j]
            val[:1 << j] = np.where(acting[:1 << j], np.maximum(par, child), par + child)
        return val
    val = _backward(tree, s.call[seat], s.challenge[seat], tv)
    if s.forfeit is not None:
        return _backward(tree, s.call[seat], np.ones_like(tv), extra) + val
    return val


def exploitability(game: RoundGame, s: Strategy, tree: Tree | None = None
                   ) -> tuple[float, float, float]:
    """(exploitability, best-response value of seat 0, of seat 1): OpenSpiel's
    ``exploitability`` (NashConv / 2; the round is zero-sum)."""
    tree = tree or Tree.build(game.m)
    br = [float(values(game, tree, s, seat, best_response=True)[0].sum()) for seat in (0, 1)]
    return (br[0] + br[1]) / 2.0, br[0], br[1]


def game_value(game: RoundGame, s: Strategy, tree: Tree | None = None) -> float:
    """Seat 0's expected payoff when both seats follow ``s``."""
    tree = tree or Tree.build(game.m)
    return float(values(game, tree, s, 0)[0].sum())


def uniform(game: RoundGame, tree: Tree) -> Strategy:
    """Every legal action equally likely, at every information state."""
    calls, chall = [], []
    for seat in (0, 1):
        h = len(game.hands[seat])
        p = 1.0 / tree.actions
        mine = tree.actor == seat
        call = np.ones((tree.size, h))
        call[1:] = np.where(mine[tree.parent[1:]], p[tree.parent[1:]], 1.0)[:, None]
        ch = np.where(mine & (np.arange(tree.size) > 0), p, 1.0)
        ch = np.where(mine & (np.arange(tree.size) == 0), 0.0, ch)
        calls.append(call)
        chall.append(np.repeat(ch[:, None], h, axis=1))
    return Strategy(calls, chall)


def normalise(tree: Tree, seat: int, call_w: FloatArray, chall_w: FloatArray
              ) -> tuple[FloatArray, FloatArray]:
    """The strategy of ``seat`` proportional to non-negative weights per node (uniform
    where they are all 0), with 1 where the seat does not act."""
    total = chall_w + tree.sum_children(call_w)
    positive = total > 0
    inv = np.divide(1.0, total, out=np.zeros_like(total), where=positive)
    fallback = np.where(positive, 0.0, (1.0 / tree.actions)[:, None])
    ch = chall_w * inv
    ch += fallback
    np.copyto(ch, 1.0, where=(tree.actor != seat)[:, None])
    ch[0] = 0.0 if seat == 0 else 1.0  # B5: no challenge before the first call
    call = np.ones_like(call_w)
    for j in range(tree.m):
        blk = tree.block(j)
        np.multiply(call_w[blk], inv[:1 << j], out=call[blk])
        call[blk] += fallback[:1 << j]
    # The call into node c is the seat's own where its parent's actor (1 - actor[c]) is it.
    np.copyto(call, 1.0, where=(tree.actor == seat)[:, None])
    call[0] = 1.0
    return call, ch


def _backward(tree: Tree, own_call: FloatArray, own_chall: FloatArray, tv: FloatArray
              ) -> FloatArray:
    val = own_chall * tv
    for j in reversed(range(tree.m)):
        blk = tree.block(j)
        val[:1 << j] += own_call[blk] * val[blk]
    return val


@dataclass
class Progress:
    iterations: int
    seconds: float
    exploitability: float


class CFRPlus:
    """CFR+ (Tammelin 2014): regret matching+, alternating updates, linear averaging."""

    def __init__(self, game: RoundGame) -> None:
        self.game = game
        self.tree = Tree.build(game.m)
        self.iterations = 0
        n = self.tree.size
        self.r_call = [np.zeros((n, len(game.hands[s]))) for s in (0, 1)]
        self.r_chall = [np.zeros((n, len(game.hands[s]))) for s in (0, 1)]
        self.s_call = [np.zeros((n, len(game.hands[s]))) for s in (0, 1)]
        self.s_chall = [np.zeros((n, len(game.hands[s]))) for s in (0, 1)]
        t = self.tree
        node = np.arange(t.size)
        # Where each seat's regrets live: call edges into nodes whose parent it acts at,
        # challenges at the nodes it acts at (never at the root, B5).
        self._call_mask = [((t.actor != s) & (node > 0)).astype(float)[:, None] for s in (0, 1)]
        self._chall_mask = [((t.actor == s) & (node > 0)).astype(float)[:, None]
                            for s in (0, 1)]
        self._strategy = [normalise(t, s, self.r_call[s], self.r_chall[s]) for s in (0, 1)]

    def current(self) -> Strategy:
        return Strategy([c for c, _ in self._strategy], [x for _, x in self._strategy])

    def average(self) -> Strategy:
        calls, chall = [], []
        for s in (0, 1):
            c, x = normalise(self.tree, s, self.s_call[s], self.s_chall[s])
            calls.append(c)
            chall.append(x)
        return Strategy(calls, chall)

    def iterate(self, count: int = 1) -> None:
        t = self.tree
        for _ in range(count):
            self.iterations += 1
            weight = float(self.iterations)
            for seat in (0, 1):
                own_call, own_chall = self._strategy[seat]
                opp_call, opp_chall = self._strategy[1 - seat]
                opp_reach = _reach(t, opp_call)
                opp_reach *= opp_chall
                tv = _terminal(self.game, t, seat, opp_reach)
                v = _backward(t, own_call, own_chall, tv)
                tv -= v
                tv *= self._chall_mask[seat]
                r_chall = self.r_chall[seat]
                r_chall += tv
                np.maximum(r_chall, 0.0, out=r_chall)
                r_call = self.r_call[seat]
                for j in range(t.m):
                    blk = t.block(j)
                    r_call[blk] += (v[blk] - v[:1 << j]) * self._call_mask[seat][blk]
                np.maximum(r_call, 0.0, out=r_call)
                own = _reach(t, own_call)
                own *= weight
                self.s_call[seat] += own * self._call_mask[seat]
                own *= own_chall
                own *= self._chall_mask[seat]
                self.s_chall[seat] += own
                self._strategy[seat] = normalise(t, seat, r_call, r_chall)

    def solve(self, target: float = 1e-3, max_iterations: int = 10_000,
              max_seconds: float = 600.0, check_every: Callable[[int], bool] | None = None
              ) -> list[Progress]:
        """Iterate until the average strategy's exploitability is below ``target`` (or a
        limit); returns the exploitability measured along the way (time excludes it)."""
        check = check_every or (lambda i: i & (i - 1) == 0 or i % 50 == 0)
        history: list[Progress] = []
        spent = 0.0
        while self.iterations < max_iterations and spent < max_seconds:
            began = time.perf_counter()
            self.iterate()
            spent += time.perf_counter() - began
            if check(self.iterations):
                e = exploitability(self.game, self.average(), self.tree)[0]
                history.append(Progress(self.iterations, spent, e))
                if e < target:
                    break
        return history


def best_response(game: RoundGame, tree: Tree, s: Strategy, seat: int
                  ) -> tuple[FloatArray, FloatArray]:
    """A pure best response of ``seat`` to the other seat's part of ``s``: its (call,
    challenge) arrays in the strategy layout, choosing at every information state an
    action of highest counterfactual value (the challenge on ties)."""
    if s.forfeit is not None:
        raise ValueError("best_response takes strategies without forfeits")
    opp = 1 - seat
    tv = _terminal(game, tree, seat, _reach(tree, s.call[opp]) * s.challenge[opp])
    val = values(game, tree, s, seat, best_response=True)
    acting = tree.actor == seat
    # The best call child of every node: its value and which block (call) it is in.
    best_child = np.full_like(val, -np.inf)
    best_call = np.full(val.shape, -1, dtype=np.int64)
    for j in range(tree.m):
        better = val[tree.block(j)] > best_child[:1 << j]
        best_child[:1 << j] = np.where(better, val[tree.block(j)], best_child[:1 << j])
        best_call[:1 << j] = np.where(better, j, best_call[:1 << j])
    can_challenge = (np.arange(tree.size) > 0)[:, None]
    challenge = can_challenge & (tv >= best_child)
    chall_w = np.where(acting[:, None] & challenge, 1.0, 0.0)
    call_w = np.zeros_like(val)
    for j in range(tree.m):
        chosen = (best_call[:1 << j] == j) & ~challenge[:1 << j]
        call_w[tree.block(j)] = np.where(acting[:1 << j, None] & chosen, 1.0, 0.0)
    return normalise(tree, seat, call_w, chall_w)


def action_values(game: RoundGame, tree: Tree, s: Strategy, seat: int
                  ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(challenge, call, reached), each (N, H_seat), for ``seat`` when both seats follow
    ``s``: the counterfactual value of challenging at each node, of the call into each node
    (then following ``s``), and the weight of the other seat's reach times chance at each
    node (dividing a counterfactual value by it gives the expected payoff given the
    information state)."""
    opp = 1 - seat
    opp_reach = _reach(tree, s.call[opp])
    challenge = _terminal(game, tree, seat, opp_reach * s.challenge[opp])
    call = values(game, tree, s, seat)
    reached = opp_reach @ (game.chance if seat == 1 else game.chance.T)
    return challenge, call, reached
