"""Magnetic mirror descent (Sokota et al. 2023) on a solved Bluff round: a policy-gradient
method regularised toward a magnet policy, R-NaD-style (Perolat et al. 2022).

    python -m usotsuki.research.baselines.mmd [--rounds r4-1v1,...] [--eta 0.2]
        [--alpha 0.05] [--magnet-every 200] [--iterations N] [--seconds S]
        [--out curves.json] [--plot curves.png]

Both seats hold a softmax policy per information state (node, own hand: a tabular
policy, logits per legal action). An iteration computes every action's exact value for
both seats against the current policies (:func:`usotsuki.research.cfr.action_values`,
the expected payoff given the information state) and takes one mirror-descent step of
size ``eta`` on it, with a KL penalty of weight ``alpha`` toward the magnet:

    logits' = (log pi + alpha * eta * log magnet + eta * q) / (1 + alpha * eta)

Alone this converges (last iterate, no averaging) to the regularised equilibrium of the
magnet; like R-NaD, the magnet is replaced by the current policy every
``magnet_every`` iterations, so the fixed point moves toward a Nash equilibrium. The
policy it plays is the current one (no average); no randomness, so no seed.
"""

from __future__ import annotations

import argparse

import numpy as np

from usotsuki.research.baselines.curve import Curve, learn, round_arguments, run_rounds
from usotsuki.research.cfr import (
    FloatArray,
    Strategy,
    Tree,
    action_values,
    normalise,
    uniform,
)
from usotsuki.research.round import RoundGame
from usotsuki.research.solve import parse_game


def softmax(tree: Tree, seat: int, call_logit: FloatArray, chall_logit: FloatArray
            ) -> tuple[FloatArray, FloatArray]:
    """The seat's (call, challenge) arrays of the softmax over each node's legal actions:
    the call into child ``c`` has logit ``call_logit[c]``, the challenge at ``B``
    ``chall_logit[B]`` (none at the root, B5)."""
    top = chall_logit.copy()
    top[0] = -np.inf
    for j in range(tree.m):
        np.maximum(top[:1 << j], call_logit[tree.block(j)], out=top[:1 << j])
    chall_w = np.exp(chall_logit - top)
    chall_w[0] = 0.0
    call_w = np.ones_like(call_logit)
    for j in range(tree.m):
        call_w[tree.block(j)] = np.exp(call_logit[tree.block(j)] - top[:1 << j])
    return normalise(tree, seat, call_w, chall_w)


REACHED = 1e-30  # below this reach weight an information state's values are noise


def _log(p: FloatArray) -> FloatArray:
    return np.log(np.maximum(p, 1e-300))


class MMD:
    """The learner: both seats' current policies and magnets on one round."""

    def __init__(self, game: RoundGame, eta: float = 0.2, alpha: float = 0.05,
                 magnet_every: int = 200) -> None:
        self.game = game
        self.tree = Tree.build(game.m)
        self.eta, self.alpha, self.magnet_every = eta, alpha, magnet_every
        self.iterations = 0
        self.policy = uniform(game, self.tree)
        self.magnet = self.policy.copy()

    def iterate(self) -> None:
        t, s, eta, alpha = self.tree, self.policy, self.eta, self.alpha
        updated = []
        for seat in (0, 1):
            chall_cfv, call_cfv, reached = action_values(self.game, t, s, seat)
            # Information states the other seat all but never lets happen keep q = 0.
            inv = np.divide(1.0, reached, out=np.zeros_like(reached),
                            where=reached > REACHED)
            chall_q = chall_cfv * inv
            call_q = call_cfv * inv  # the call into c keeps the other seat's reach at c
            logits = []
            for q, pi, mag in ((call_q, s.call[seat], self.magnet.call[seat]),
                               (chall_q, s.challenge[seat], self.magnet.challenge[seat])):
                logits.append((_log(pi) + alpha * eta * _log(mag) + eta * q)
                              / (1.0 + alpha * eta))
            updated.append(softmax(t, seat, logits[0], logits[1]))
        self.policy = Strategy([u[0] for u in updated], [u[1] for u in updated])
        self.iterations += 1
        if self.iterations % self.magnet_every == 0:
            self.magnet = self.policy.copy()


def train(name: str, iterations: int = 100_000, seconds: float = 600.0, eta: float = 0.2,
          alpha: float = 0.05, magnet_every: int = 200) -> tuple[Curve, Strategy]:
    """MMD on the round ``name``: its curve and the final (current) policy."""
    learner = MMD(RoundGame(parse_game(name)), eta, alpha, magnet_every)
    curve = Curve("MMD", name, {"eta": eta, "alpha": alpha, "magnet_every": magnet_every,
                                "initial": "uniform"})

    def step() -> Strategy:
        learner.iterate()
        return learner.policy

    return curve, learn(curve, learner.game, learner.tree, step, iterations, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Magnetic mirror descent (a regularised "
                                     "policy gradient) on the solved Bluff rounds, with "
                                     "exploitability curves.")
    round_arguments(parser, seconds=120.0)
    parser.add_argument("--eta", type=float, default=0.2, help="step size")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="weight of the KL penalty toward the magnet")
    parser.add_argument("--magnet-every", type=int, default=200,
                        help="iterations between magnet updates (to the current policy)")
    args = parser.parse_args(argv)
    return run_rounds(args, lambda name: train(name, args.iterations, args.seconds, args.eta,
                                               args.alpha, args.magnet_every)[0],
                      "MMD (magnetic mirror descent, moving magnet)")


if __name__ == "__main__":
    raise SystemExit(main())
