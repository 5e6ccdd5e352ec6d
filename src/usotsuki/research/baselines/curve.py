"""What every round baseline records and draws: exploitability against training time.

A :class:`Curve` is one run on one solved round: the method, its settings, and the exact
exploitability (:func:`usotsuki.research.cfr.exploitability`, OpenSpiel's NashConv / 2)
of the policy it would play at each checkpoint. :func:`plot` draws curves as a PNG
(matplotlib, from the ``research`` extra), one panel per round.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from usotsuki.research.cfr import Strategy, Tree, exploitability
from usotsuki.research.evaluate import SOLVED_ROUNDS
from usotsuki.research.round import RoundGame

BASELINE_ROUNDS: tuple[str, ...] = tuple(r for r in SOLVED_ROUNDS if r[:2] in ("r4", "r5"))
"""The ranks-4 and ranks-5 solved rounds the round baselines train on."""


@dataclass(frozen=True, slots=True)
class Point:
    iteration: int
    seconds: float  # CPU time of training so far (measuring exploitability excluded)
    exploitability: float


@dataclass
class Curve:
    """One training run on one round."""

    method: str
    round: str
    settings: dict[str, Any]
    points: list[Point] = field(default_factory=list)

    @property
    def final(self) -> Point:
        return self.points[-1]

    def line(self) -> str:
        p = self.final
        return (f"{self.method} {self.round}: exploitability {p.exploitability:.4g} after "
                f"{p.iteration} iterations, {p.seconds:.1f} s")


EQUILIBRIUM = 1e-12
"""Exploitability at which a run stops: an equilibrium, to rounding."""


FLOOR = 1e-16  # where the plots draw an exploitability of 0


def learn(curve: Curve, game: RoundGame, tree: Tree, step: Callable[[], Strategy],
          iterations: int, seconds: float) -> Strategy:
    """Run ``step`` (one iteration, returning the policy the learner would play) until
    ``seconds`` of CPU time, ``iterations`` iterations, or an equilibrium, appending the
    policy's exact exploitability at each :func:`checkpoint` to ``curve``; returns the
    last policy. :raises ValueError: for fewer than 1 iteration."""
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    spent = 0.0
    for it in range(1, iterations + 1):
        began = time.process_time()
        policy = step()
        spent += time.process_time() - began
        done = spent >= seconds or it == iterations
        if checkpoint(it) or done:
            e = exploitability(game, policy, tree)[0]
            curve.points.append(Point(it, spent, e))
            done = done or e <= EQUILIBRIUM
        if done:
            break
    return policy


def checkpoint(iteration: int) -> bool:
    """About eight checkpoints per doubling of the iterations: a curve that reads on a
    log axis at any length."""
    return iteration < 16 or iteration % (1 << (iteration.bit_length() - 4)) == 0


def save(curves: Sequence[Curve], path: Path) -> None:
    path.write_text(json.dumps([asdict(c) for c in curves], indent=1) + "\n")


def load(path: Path) -> list[Curve]:
    return [Curve(c["method"], c["round"], c["settings"],
                  [Point(**p) for p in c["points"]]) for c in json.loads(path.read_text())]


def plot(curves: Sequence[Curve], path: Path, title: str) -> None:
    """One panel per round, exploitability against CPU time (both logarithmic: an
    iteration of PSRO costs far more than one of MMD)."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    rounds = list(dict.fromkeys(c.round for c in curves))
    cols = min(3, len(rounds))
    rows = -(-len(rounds) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    for ax, name in zip(axes.flat, rounds, strict=False):
        for c in curves:
            if c.round == name:
                # rounding can leave an equilibrium's figure at 0 or just below
                ax.plot([p.seconds for p in c.points],
                        [max(p.exploitability, FLOOR) for p in c.points], label=c.method)
        ax.set(title=name, xscale="log", yscale="log", xlabel="CPU seconds of training")
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes.flat[len(rounds):]:
        ax.set_visible(False)
    axes[0][0].set_ylabel("exploitability (NashConv / 2)")
    axes[0][0].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def round_arguments(parser: argparse.ArgumentParser, seconds: float) -> None:
    """The options every round baseline takes."""
    parser.add_argument("--rounds", default=",".join(BASELINE_ROUNDS),
                        help="solved rounds to train on, comma-separated "
                             f"(default: {','.join(BASELINE_ROUNDS)})")
    parser.add_argument("--iterations", type=int, default=100_000,
                        help="stop after this many iterations per round")
    parser.add_argument("--seconds", type=float, default=seconds,
                        help="stop after this much CPU time of training per round")
    parser.add_argument("--out", type=Path, default=None, help="write the curves as JSON")
    parser.add_argument("--plot", type=Path, default=None, help="draw the curves as a PNG")


def run_rounds(args: argparse.Namespace, train_one: Callable[[str], Curve], title: str
               ) -> int:
    """Train on each of ``args.rounds`` in turn, printing each final figure; then write the
    curves (``args.out``) and draw them (``args.plot``). The exit status of a command."""
    curves = []
    try:
        for name in parse_rounds(args.rounds):
            curves.append(train_one(name))
            print(curves[-1].line(), flush=True)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.out:
        save(curves, args.out)
    if args.plot:
        plot(curves, args.plot, title)
    return 0


def parse_rounds(text: str) -> list[str]:
    names = text.split(",")
    unknown = [n for n in names if n not in SOLVED_ROUNDS]
    if unknown:
        raise ValueError(f"not a solved round: {', '.join(unknown)} (the solved rounds are "
                         f"{', '.join(SOLVED_ROUNDS)})")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw saved round-baseline curves "
                                     "(the --out files of psro and mmd) in one PNG.")
    parser.add_argument("curves", nargs="+", type=Path, help="JSON files of curves")
    parser.add_argument("--plot", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--title", default="Exploitability on the solved Bluff rounds")
    args = parser.parse_args(argv)
    curves = [c for path in args.curves for c in load(path)]
    plot(curves, args.plot, args.title)
    for c in curves:
        print(c.line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
