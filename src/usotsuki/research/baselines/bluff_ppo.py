"""A learned full-game Bluff policy: PPO in self-play on the batched engine, then the
evaluation protocol against every level.

    python -m usotsuki.research.baselines.bluff_ppo [--seconds 600 | --updates N]
        [--seed 0] [--lr 1e-3] [--games 200] [--save policy.npz] [--load policy.npz]
        [--out report.json]

**The game**: heads-up Bluff with the default rules otherwise (52 cards, a player out
after losing with ``max_cards`` = 5 cards), the game :func:`usotsuki.research.evaluate`
plays against the levels.

**The learner**: one network (:class:`~usotsuki.research.baselines.mlp.MLP`) plays both
seats of ``envs`` games in lockstep (:class:`~usotsuki.research.batched.BatchedBluff`), on
the codec's observation of the seat to move (its hand, the hand sizes, the dealer and this
round's calls; B3 deals every round afresh, so this is all that bears on the round). Each
decision is credited with its round's result (B9: +1 if the seat did not lose the round,
-1 if it did): the loser of a round gets a card, and fewer cards is what wins the game
(B2, B11). Once ``batch`` decisions have their rounds resolved, PPO (clipped ratio,
value baseline, entropy bonus) takes ``epochs`` passes over them in minibatches.

**The policy** (:class:`LearnedBluffBot`): a bot of the project (``act(view, legal,
rng)``), drawing from the network's distribution over the legal actions with the seat's
generator, so the evaluation's seeded game set replays exactly.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from usotsuki.bluff import Action, BluffRules, BluffView
from usotsuki.envs.bluff_codec import BluffCodec
from usotsuki.research.baselines.mlp import MLP, Array
from usotsuki.research.batched import BatchedBluff
from usotsuki.research.evaluate import LEVELS, Report, evaluate

RULES = BluffRules(players=2)


@dataclass(frozen=True, slots=True)
class Settings:
    envs: int = 256  # games in lockstep
    batch: int = 8192  # resolved decisions per update
    minibatch: int = 1024
    epochs: int = 3
    hidden: int = 64
    lr: float = 1e-3
    clip: float = 0.2
    entropy: float = 0.01
    value: float = 0.5  # weight of the value loss


class LearnedBluffBot:
    """A Bluff bot acting on :class:`MLP`'s policy (heads-up, default deck)."""

    name = "ppo"

    def __init__(self, net: MLP, rules: BluffRules = RULES) -> None:
        self.net = net
        self.codec = BluffCodec(rules)

    def probabilities(self, view: BluffView, legal: Sequence[Action]
                      ) -> tuple[list[int], Array]:
        ids = [self.codec.action_id(a) for a in legal]
        mask = np.zeros((1, self.codec.num_actions), dtype=bool)
        mask[0, ids] = True
        f = self.net.forward(self.codec.observation(view)[None], mask)
        return ids, f.probs[0, ids]

    def act(self, view: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        ids, probs = self.probabilities(view, legal)
        u = rng.random() * float(probs.sum())
        pick = min(int(np.searchsorted(np.cumsum(probs), u, side="right")), len(ids) - 1)
        return self.codec.action(ids[pick])


@dataclass
class Buffer:
    """Decisions whose rounds have been resolved, ready for an update."""

    obs: list[Array]
    mask: list[npt.NDArray[np.bool_]]
    action: list[npt.NDArray[np.int64]]
    logp: list[Array]
    ret: list[Array]

    def size(self) -> int:
        return sum(len(a) for a in self.action)


class Trainer:
    """Self-play PPO on the batched engine; see the module docstring."""

    def __init__(self, seed: int = 0, settings: Settings = Settings()) -> None:
        self.settings = settings
        self.rng = np.random.default_rng(seed)
        self.engine = BatchedBluff(RULES, settings.envs, seed=seed, autoreset=True)
        self.net = MLP.create(self.engine.observation_size, self.engine.num_actions,
                              settings.hidden, seed)
        n = settings.envs
        # Decisions of each game's round in play, not yet credited.
        self.pending: list[list[tuple[Array, npt.NDArray[np.bool_], int, float, int]]] = [
            [] for _ in range(n)]
        self.decisions = 0
        self.updates = 0

    def collect(self) -> Buffer:
        """Play until ``batch`` decisions have their rounds resolved."""
        e, net = self.engine, self.net
        out = Buffer([], [], [], [], [])
        while out.size() < self.settings.batch:
            obs = e.observe().astype(np.float32)  # the network takes float32
            mask = e.legal_mask()
            f = net.forward(obs, mask)
            cum = np.cumsum(f.probs, axis=1)
            u = self.rng.random(e.n)[:, None] * cum[:, -1:]
            actions = np.minimum((cum <= u).sum(axis=1), e.K)
            actions = np.where(mask[np.arange(e.n), actions], actions, mask.argmax(axis=1))
            seats = e.to_move.copy()
            logp = np.log(f.probs[np.arange(e.n), actions] + 1e-12)
            for g in range(e.n):
                self.pending[g].append((obs[g], mask[g], int(actions[g]), float(logp[g]),
                                        int(seats[g])))
            e.step(actions)
            self.decisions += e.n
            for g in np.flatnonzero(actions == e.K).tolist():  # the round was resolved
                loser = int(e.last_loser[g])
                steps = self.pending[g]
                self.pending[g] = []
                out.obs.append(np.stack([s[0] for s in steps]))
                out.mask.append(np.stack([s[1] for s in steps]))
                out.action.append(np.array([s[2] for s in steps]))
                out.logp.append(np.array([s[3] for s in steps], np.float32))
                out.ret.append(np.array([-1.0 if s[4] == loser else 1.0 for s in steps],
                                        np.float32))
        return out

    def update(self, data: Buffer) -> None:
        s, net = self.settings, self.net
        obs, mask = np.concatenate(data.obs), np.concatenate(data.mask)
        action, old = np.concatenate(data.action), np.concatenate(data.logp)
        ret = np.concatenate(data.ret)
        for _ in range(s.epochs):
            order = self.rng.permutation(len(action))
            for start in range(0, len(order), s.minibatch):
                i = order[start:start + s.minibatch]
                f = net.forward(obs[i], mask[i])
                rows = np.arange(len(i))
                adv = ret[i] - f.value
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                logp = np.log(f.probs[rows, action[i]] + 1e-12)
                ratio = np.exp(logp - old[i])
                # d(-min(ratio * adv, clip(ratio) * adv)) / d logp: zero where clipped
                clipped = ((adv > 0) & (ratio > 1 + s.clip)) | ((adv < 0) & (ratio < 1 - s.clip))
                d_logp = np.where(clipped, 0.0, -ratio * adv) / len(i)
                onehot = np.zeros_like(f.probs)
                onehot[rows, action[i]] = 1.0
                d_logits = d_logp[:, None] * (onehot - f.probs)
                # entropy bonus: d(-H)/d logits = p * (log p + H)
                logp_all = np.log(np.where(f.probs > 0, f.probs, 1.0))
                ent = -(f.probs * logp_all).sum(axis=1, keepdims=True)
                d_logits += s.entropy * f.probs * (logp_all + ent) / len(i)
                d_value = s.value * 2.0 * (f.value - ret[i]) / len(i)
                net.adam(net.backward(f, d_logits.astype(np.float32),
                                      d_value.astype(np.float32)), s.lr)
        self.updates += 1

    def train(self, seconds: float, updates: int | None = None) -> None:
        """Update until ``seconds`` of CPU time have passed or ``updates`` updates are
        done (the seed then fixes the result)."""
        began = time.process_time()
        while time.process_time() - began < seconds and (updates is None
                                                         or self.updates < updates):
            self.update(self.collect())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="PPO in self-play for heads-up Bluff, then "
                                     "win shares against every level.")
    parser.add_argument("--seconds", type=float, default=600.0,
                        help="stop training after this much CPU time")
    parser.add_argument("--updates", type=int, default=None,
                        help="stop training after this many updates (replays exactly)")
    parser.add_argument("--seed", type=int, default=0, help="training and evaluation seed")
    parser.add_argument("--lr", type=float, default=Settings().lr, help="Adam's step size")
    parser.add_argument("--games", type=int, default=200, help="games against each level")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--save", type=Path, default=None, help="write the network (.npz)")
    parser.add_argument("--load", type=Path, default=None,
                        help="evaluate this network instead of training one")
    parser.add_argument("--out", type=Path, default=None, help="write the report as JSON")
    args = parser.parse_args(argv)
    if args.load:
        net = MLP.load(args.load)
    else:
        trainer = Trainer(args.seed, Settings(lr=args.lr))
        began = time.process_time()
        trainer.train(args.seconds, args.updates)
        net = trainer.net
        print(f"trained {time.process_time() - began:.0f} s of CPU: {trainer.updates} "
              f"updates, {trainer.decisions} decisions", flush=True)
        if args.save:
            net.save(args.save)
    try:
        report: Report = evaluate(LearnedBluffBot(net), rounds=(),
                                  levels=args.levels.split(","), games=args.games,
                                  seed=args.seed, progress=lambda s: print(s, flush=True))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.out:
        args.out.write_text(json.dumps(report.to_json(), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
