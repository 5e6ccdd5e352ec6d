"""PSRO (policy-space response oracles, Lanctot et al. 2017) on a solved Bluff round.

    python -m usotsuki.research.baselines.psro [--rounds r4-1v1,...] [--iterations N]
        [--seconds S] [--out curves.json] [--plot curves.png]

Each seat keeps a population of pure strategies, starting from the uniform policy. An
iteration solves the meta-game (the zero-sum matrix of exact expected payoffs between
the two populations) by linear programming, mixes each population by its meta-strategy
into one behaviour strategy (weighting each member by its own reach, Kuhn's theorem),
and adds each seat's exact best response to the other's mixture
(:func:`usotsuki.research.cfr.best_response`). The policy it plays is the mixture; its
exploitability is measured exactly at every checkpoint. With an exact oracle PSRO is
double oracle: no randomness, so no seed; it stops once neither best response gains.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import linprog

from usotsuki.research.baselines.curve import Curve, learn, round_arguments, run_rounds
from usotsuki.research.cfr import (
    FloatArray,
    Strategy,
    Tree,
    _reach,
    best_response,
    normalise,
    uniform,
)
from usotsuki.research.round import RoundGame
from usotsuki.research.solve import parse_game

SeatPolicy = tuple[FloatArray, FloatArray]  # one seat's (call, challenge) arrays


def meta_nash(payoff: npt.NDArray[np.float64]) -> tuple[FloatArray, FloatArray]:
    """A Nash equilibrium (row mix, column mix) of the zero-sum matrix game ``payoff``
    (the row player's payoff), by linear programming."""
    def maximin(a: npt.NDArray[np.float64]) -> FloatArray:
        # max v s.t. a.T @ x >= v, sum x = 1, x >= 0; variables (x, v), minimise -v
        n, k = a.shape
        result = linprog(np.r_[np.zeros(n), -1.0], A_ub=np.c_[-a.T, np.ones(k)],
                         b_ub=np.zeros(k), A_eq=np.r_[np.ones(n), 0.0][None],
                         b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)],
                         method="highs")
        if not result.success:
            raise RuntimeError(f"the meta-game LP failed: {result.message}")
        x: FloatArray = np.maximum(np.asarray(result.x[:n], dtype=np.float64), 0.0)
        mix: FloatArray = x / x.sum()
        return mix

    return maximin(payoff), maximin(-payoff.T)


@dataclass(frozen=True)
class Member:
    """One strategy of a seat's population, kept compact: a best response is pure, so its
    arrays are 0 or 1 and are stored as booleans."""

    call: npt.NDArray[Any]
    challenge: npt.NDArray[Any]
    terminal: npt.NDArray[Any]  # its reach times its challenge: its weight at each node

    @classmethod
    def of(cls, tree: Tree, policy: SeatPolicy) -> Member:
        call, chall = policy
        terminal = _reach(tree, call) * chall
        if all(np.isin(a, (0.0, 1.0)).all() for a in (call, chall)):
            return cls(call.astype(bool), chall.astype(bool), terminal.astype(bool))
        return cls(call, chall, terminal)


def mixture(tree: Tree, seat: int, members: Sequence[Member], weights: FloatArray
            ) -> SeatPolicy:
    """The behaviour strategy playing like ``members`` mixed by ``weights``: at each
    information state, each member's action probabilities weighted by its probability of
    reaching it (its own calls)."""
    node = np.arange(tree.size)
    call_mask = ((tree.actor != seat) & (node > 0))[:, None]
    chall_mask = ((tree.actor == seat) & (node > 0))[:, None]
    call_w = np.zeros(members[0].call.shape)
    chall_w = np.zeros(members[0].call.shape)
    for member, w in zip(members, weights, strict=True):
        if w <= 0.0:
            continue
        reach = _reach(tree, member.call.astype(float)) * w
        call_w += reach * call_mask
        chall_w += reach * member.challenge * chall_mask
    return normalise(tree, seat, call_w, chall_w)


def profile(first: SeatPolicy, second: SeatPolicy) -> Strategy:
    return Strategy([first[0], second[0]], [first[1], second[1]])


class MetaGame:
    """The exact payoffs between the two populations, grown a row and a column at a time.

    The first caller's expected payoff is bilinear in the two members' terminal weights:
    a sum over nodes ``B`` of ``t0[B] @ (sign(B) * payoff[hb(B)]) @ t1[B]``, where the
    sign says whether the first caller made the last call (B9). A new member's weights
    are multiplied through the payoff matrices once, then each entry is one dot product
    (:func:`usotsuki.research.cfr.game_value` gives the same numbers; tests check it)."""

    def __init__(self, game: RoundGame, tree: Tree) -> None:
        self.game, self.tree = game, tree
        self.sign = np.where(tree.actor == 1, 1.0, -1.0)[:, None]  # seat 0 made the call
        self.members: list[list[Member]] = [[], []]
        self.payoff = np.zeros((0, 0))

    def _through(self, seat: int, terminal: npt.NDArray[Any]) -> FloatArray:
        """The seat's terminal weights times the payoff matrices, in the other's hands."""
        out = np.zeros((self.tree.size, len(self.game.hands[1 - seat])))
        for j in range(self.tree.m):
            blk = self.tree.block(j)
            p = self.game.payoff[j] if seat == 0 else self.game.payoff[j].T
            out[blk] = terminal[blk] @ p
        return out * self.sign

    def add(self, first: SeatPolicy, second: SeatPolicy) -> None:
        a, b = Member.of(self.tree, first), Member.of(self.tree, second)
        self.members[0].append(a)
        self.members[1].append(b)
        through_a = self._through(0, a.terminal)
        through_b = self._through(1, b.terminal)
        row = [float((through_a * m.terminal).sum()) for m in self.members[1]]
        col = [float((through_b * m.terminal).sum()) for m in self.members[0][:-1]]
        self.payoff = np.block([[self.payoff, np.array(col)[:, None]], [np.array(row)[None]]])


def train(name: str, iterations: int = 100_000, seconds: float = 600.0) -> tuple[
        Curve, Strategy]:
    """PSRO on the round ``name``: its curve and the final mixture."""
    game = RoundGame(parse_game(name))
    tree = Tree.build(game.m)
    start = uniform(game, tree)
    meta = MetaGame(game, tree)
    meta.add((start.call[0], start.challenge[0]), (start.call[1], start.challenge[1]))
    curve = Curve("PSRO", name, {"oracle": "exact best response", "meta_solver": "LP",
                                 "initial": "uniform"})

    def step() -> Strategy:
        x, y = meta_nash(meta.payoff)
        mixed = profile(mixture(tree, 0, meta.members[0], x),
                        mixture(tree, 1, meta.members[1], y))
        meta.add(best_response(game, tree, mixed, 0), best_response(game, tree, mixed, 1))
        return mixed

    return curve, learn(curve, game, tree, step, iterations, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="PSRO with an exact best-response oracle "
                                     "on the solved Bluff rounds, with exploitability curves.")
    round_arguments(parser, seconds=120.0)
    args = parser.parse_args(argv)
    return run_rounds(args, lambda name: train(name, args.iterations, args.seconds)[0],
                      "PSRO (exact best-response oracle)")


if __name__ == "__main__":
    raise SystemExit(main())
