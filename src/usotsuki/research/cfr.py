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

    def sum_children(self, x: FloatArray, out: FloatArray | None = None) -> FloatArray:
        """(N, H): the sum over each node's call children of ``x`` (indexed by child)."""
        if out is None:
            out = np.zeros_like(x)
        else:
            out.fill(0.0)
        for j in range(self.m):
            out[:1 << j] += x[self.block(j)]
        return out

    def caller_sign(self, seat: int, dtype: npt.DTypeLike = np.float64) -> FloatArray:
        """(N, 1): +1 where ``seat`` made the last call (the other seat acts), else -1."""
        return np.where(self.actor == seat, -1.0, 1.0).astype(dtype)[:, None]


@dataclass
class Strategy:
    """A behaviour strategy for both seats (see the module docstring for the layout)."""

    call: list[FloatArray]
    challenge: list[FloatArray]
    forfeit: list[FloatArray] | None = None  # optional: P(a call the tree lacks), loses

    def copy(self) -> Strategy:
        return Strategy([a.copy() for a in self.call], [a.copy() for a in self.challenge],
                        None if self.forfeit is None else [a.copy() for a in self.forfeit])


def seat_payoff(game: RoundGame, seat: int, dtype: npt.DTypeLike = np.float64) -> FloatArray:
    """(m, H_opp, H_seat), contiguous: chance times (+1 if call j is true, -1 if not),
    laid out so that ``opp_reach @ seat_payoff[j]`` gives ``seat``'s values."""
    a = game.payoff.transpose(0, 2, 1) if seat == 0 else game.payoff
    return np.ascontiguousarray(a, dtype=dtype)


def _terminal(game: RoundGame, tree: Tree, seat: int, opp_reach: FloatArray,
              out: FloatArray | None = None, payoff: FloatArray | None = None,
              sign: FloatArray | None = None) -> FloatArray:
    """(N, H_seat): the counterfactual value to ``seat`` of a challenge at each node,
    given the opponent's reach times its challenge probability (B8, B9). ``payoff``
    and ``sign`` (:func:`seat_payoff`, :meth:`Tree.caller_sign`) may be given
    precomputed, ``out`` as a buffer."""
    dtype = opp_reach.dtype
    if payoff is None:
        payoff = seat_payoff(game, seat, dtype)
    if out is None:
        out = np.empty((tree.size, len(game.hands[seat])), dtype=dtype)
    out[0] = 0.0  # B5: no challenge before the first call
    for j in range(tree.m):
        blk = tree.block(j)
        np.matmul(opp_reach[blk], payoff[j], out=out[blk])
    # The caller of the last call is the seat that moved into the node (1 - actor): it
    # wins when the call is true (B9).
    out *= tree.caller_sign(seat, dtype) if sign is None else sign
    return out


def _reach(tree: Tree, call: FloatArray, out: FloatArray | None = None) -> FloatArray:
    reach = np.empty_like(call) if out is None else out
    reach[0] = 1.0
    for j in range(tree.m):
        blk = tree.block(j)
        np.multiply(reach[:1 << j], call[blk], out=reach[blk])
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


def normalise(tree: Tree, seat: int, call_w: FloatArray, chall_w: FloatArray,
              out: tuple[FloatArray, FloatArray] | None = None,
              scratch: FloatArray | None = None) -> tuple[FloatArray, FloatArray]:
    """The strategy of ``seat`` proportional to non-negative weights per node (uniform
    where they are all 0), with 1 where the seat does not act. Only the weights where
    the seat acts are read. ``out`` (call, challenge) and ``scratch`` are optional
    buffers shaped like the weights."""
    call, ch = out if out is not None else (np.empty_like(call_w), np.empty_like(chall_w))
    mine = (tree.actor == seat)[:, None]
    # The total weight at each node: its challenge (never at the root, B5) and calls.
    inv = tree.sum_children(call_w, out=scratch)
    np.add(inv, chall_w, out=inv, where=(np.arange(tree.size) > 0)[:, None])
    # Below the smallest normal number (float32 regrets deep in the tree get there) a
    # total is noise, and its reciprocal would overflow: such a node plays uniformly.
    empty = inv < np.finfo(inv.dtype).tiny
    np.copyto(inv, 1.0, where=empty)
    np.reciprocal(inv, out=inv)
    np.copyto(inv, 0.0, where=empty)
    uniform = (1.0 / tree.actions).astype(inv.dtype)[:, None]
    np.multiply(chall_w, inv, out=ch)
    np.copyto(ch, uniform, where=empty)
    np.copyto(ch, 1.0, where=~mine)
    ch[0] = 0.0 if seat == 0 else 1.0  # B5: no challenge before the first call
    for j in range(tree.m):
        blk = tree.block(j)
        np.multiply(call_w[blk], inv[:1 << j], out=call[blk])
        np.copyto(call[blk], uniform[:1 << j], where=empty[:1 << j])
    # The call into node c is the seat's own where its parent's actor (1 - actor[c]) is it.
    np.copyto(call, 1.0, where=mine)
    call[0] = 1.0
    return call, ch


def _backward(tree: Tree, own_call: FloatArray, own_chall: FloatArray, tv: FloatArray,
              out: FloatArray | None = None, scratch: FloatArray | None = None
              ) -> FloatArray:
    val = np.multiply(own_chall, tv, out=out)
    for j in reversed(range(tree.m)):
        blk = tree.block(j)
        add = np.multiply(own_call[blk], val[blk],
                          out=None if scratch is None else scratch[blk])
        val[:1 << j] += add
    return val


@dataclass
class Progress:
    iterations: int
    seconds: float
    exploitability: float


class CFRPlus:
    """CFR+ (Tammelin 2014): regret matching+, alternating updates, linear averaging.

    ``dtype`` is the precision of the regrets, the strategy sums and the passes
    (float32 halves the memory and the memory traffic, which bound the time); the
    average strategy and every exploitability are computed in float64. All work arrays
    are allocated once: an iteration allocates nothing of the tree's size.

    Regrets and strategy sums are kept for every node; only those where the seat acts
    are read (:func:`normalise`), so they are not masked: the challenge regret of the
    root, where nobody may challenge (B5), is the one entry kept at 0."""

    def __init__(self, game: RoundGame, dtype: npt.DTypeLike = np.float64) -> None:
        self.game = game
        self.tree = Tree.build(game.m)
        self.iterations = 0
        self.dtype = np.dtype(dtype)
        n = self.tree.size

        def table(seat: int) -> FloatArray:
            return np.zeros((n, len(game.hands[seat])), dtype=self.dtype)

        self.r_call = [table(s) for s in (0, 1)]
        self.r_chall = [table(s) for s in (0, 1)]
        self.s_call = [table(s) for s in (0, 1)]
        self.s_chall = [table(s) for s in (0, 1)]
        self._payoff = [seat_payoff(game, s, self.dtype) for s in (0, 1)]
        self._sign = [self.tree.caller_sign(s, self.dtype) for s in (0, 1)]
        # Per seat: reach (also the opponent's reach times challenge), values, scratch.
        self._reach_buf = [table(s) for s in (0, 1)]
        self._tv = [table(s) for s in (0, 1)]
        self._v = [table(s) for s in (0, 1)]
        self._strategy = [normalise(self.tree, s, self.r_call[s], self.r_chall[s],
                                    out=(table(s), table(s))) for s in (0, 1)]

    def current(self) -> Strategy:
        return Strategy([c.astype(np.float64) for c, _ in self._strategy],
                        [x.astype(np.float64) for _, x in self._strategy])

    def average(self) -> Strategy:
        calls, chall = [], []
        for s in (0, 1):
            c, x = normalise(self.tree, s, self.s_call[s].astype(np.float64),
                             self.s_chall[s].astype(np.float64))
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
                opp_reach = _reach(t, opp_call, out=self._reach_buf[1 - seat])
                opp_reach *= opp_chall
                tv = _terminal(self.game, t, seat, opp_reach, out=self._tv[seat],
                               payoff=self._payoff[seat], sign=self._sign[seat])
                scratch = self._reach_buf[seat]
                v = _backward(t, own_call, own_chall, tv, out=self._v[seat],
                              scratch=scratch)
                # Challenge regrets: the challenge's value minus the node's.
                tv -= v
                r_chall = self.r_chall[seat]
                r_chall += tv
                np.maximum(r_chall, 0.0, out=r_chall)
                r_chall[0] = 0.0
                # Call regrets: the child's value minus the parent's (scratch: tv).
                diff = tv
                for j in range(t.m):
                    blk = t.block(j)
                    np.subtract(v[blk], v[:1 << j], out=diff[blk])
                diff[0] = 0.0  # no call leads into the root
                r_call = self.r_call[seat]
                r_call += diff
                np.maximum(r_call, 0.0, out=r_call)
                # Linear averaging: the seat's own reach, weighted by the iteration.
                own = _reach(t, own_call, out=scratch)
                own *= weight
                self.s_call[seat] += own
                own *= own_chall
                self.s_chall[seat] += own
                self._strategy[seat] = normalise(t, seat, r_call, r_chall,
                                                 out=self._strategy[seat], scratch=tv)

    def solve(self, target: float = 1e-3, max_iterations: int = 10_000,
              max_seconds: float = 600.0, check_every: Callable[[int], bool] | None = None,
              on_check: Callable[[Progress], None] | None = None) -> list[Progress]:
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
                if on_check is not None:
                    on_check(history[-1])
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
