"""The evaluation protocol: how good is a policy, in numbers anyone can reproduce.

    python -m usotsuki.research.evaluate --policy hard [--game bluff] [--rounds r4-1v1,...]
        [--levels easy,normal,hard,expert] [--games 200] [--seed 0] [--samples 8]
        [--out report.json]

:func:`evaluate` measures two things:

- **Exploitability on the solved rounds** (Bluff only): for every heads-up short-deck round
  whose solution ships with the package (:data:`SOLVED_ROUNDS`), the exact best response's
  gain against the policy in both seats (OpenSpiel's ``exploitability``, NashConv / 2: 0 is
  a Nash equilibrium, 1 the most a round can be lost by), and the policy's expected payoff
  against the shipped solved strategy as the first caller and as the other seat.
- **Win shares against each level**: heads-up full games against each bot level, on a
  fixed set of games derived from ``seed`` alone (:mod:`usotsuki.tournament`'s seeding:
  deals, the Liar Game's flush seed and every generator), the policy taking seat 0 in
  even games and seat 1 in odd ones. Each share comes with its 95% Wilson interval.

**The policy interface.** A policy is either

- a *bot* (:class:`usotsuki.bots.base.Bot`): ``act(view, legal, rng) -> action``, a seat's
  view in and a legal action out, as a session gives them. It plays the full games, and
  its strategy in a solved round is read off its actions on the core's views
  (:func:`usotsuki.research.bots_eval.bot_strategy`: ``samples`` draws per information
  state; 1 suffices for a deterministic policy). It should act on the view alone: one
  instance plays every game; or
- a *tabular policy* (:data:`TabularPolicy`): per round name, a
  :class:`usotsuki.research.cfr.Strategy` (the solver's arrays: a probability per call
  edge and per challenge, per own hand by rank). It is evaluated exactly on the rounds it
  covers, and plays no full games. :func:`solved_policy` gives the shipped solution in
  this form; :func:`usotsuki.research.export.strategy_from_arrays` reads any archive in
  the shipped format.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from usotsuki.bots.base import AnyBot, make_bot
from usotsuki.bots.bluff.solved import DATA as SOLVED_ARCHIVE
from usotsuki.research.bots_eval import bot_strategy, head_to_head
from usotsuki.research.cfr import Strategy, Tree, exploitability, game_value
from usotsuki.research.export import strategy_from_arrays
from usotsuki.research.round import RoundGame
from usotsuki.research.solve import DEFAULT_GAMES, parse_game
from usotsuki.tournament import Spec, play_game, wilson

SOLVED_ROUNDS: tuple[str, ...] = tuple(DEFAULT_GAMES.split(","))
"""The rounds whose CFR+ solution ships in ``usotsuki/data/solved_bluff.npz``
(``docs/solver.md``)."""

BOT_ROUNDS: tuple[str, ...] = tuple(r for r in SOLVED_ROUNDS
                                    if RoundGame(parse_game(r)).m <= 15)
"""The solved rounds a bot is measured on by default: reading a bot's policy asks it at
every information state its play reaches, which the larger rounds (2^18 and more public
nodes) make hours for the searching levels."""

LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")
"""The bot levels players meet, weakest first (both games have them)."""

TabularPolicy = Mapping[str, Strategy]
"""A strategy per solved round name (``r4-1v1`` ...), both seats, in the solver's layout."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The policy on one solved round."""

    round: str
    exploitability: float  # NashConv / 2 (OpenSpiel's ``exploitability``)
    best_response: tuple[float, float]  # each seat's best-response value against it
    vs_solved: tuple[float, float]  # its expected payoff against the solution: first, second
    solved_value: float  # the round's value to the first caller (to compare vs_solved)

    def line(self) -> str:
        return (f"{self.round}: exploitability {self.exploitability:.2e}; vs solved "
                f"{self.vs_solved[0]:+.4f} first (value {self.solved_value:+.4f}), "
                f"{self.vs_solved[1]:+.4f} second (value {-self.solved_value:+.4f})")


@dataclass(frozen=True, slots=True)
class LevelResult:
    """The policy's heads-up games against one level."""

    level: str
    games: int
    wins: int
    draws: int  # games nobody won (the Liar Game's turn limit, L11)
    win_share: float
    ci95: tuple[float, float]  # Wilson score interval of the win share

    def line(self) -> str:
        return (f"vs {self.level}: win share {self.win_share:.3f} "
                f"[{self.ci95[0]:.3f}, {self.ci95[1]:.3f}] over {self.games} games"
                + (f" ({self.draws} without a winner)" if self.draws else ""))


@dataclass(frozen=True, slots=True)
class Report:
    """Everything :func:`evaluate` measured, with what it needs to be reproduced."""

    game: str
    seed: int
    samples: int  # draws per information state when a bot was read off
    rules: str
    rounds: tuple[RoundResult, ...]
    levels: tuple[LevelResult, ...]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def lines(self) -> list[str]:
        """The report as text, one line per round and per level."""
        return [r.line() for r in self.rounds] + [lv.line() for lv in self.levels]


@cache
def _solved_archive() -> dict[str, Any]:
    with np.load(SOLVED_ARCHIVE) as arrays:
        return {k: arrays[k] for k in arrays.files}


@cache
def _round(name: str) -> tuple[RoundGame, Tree, Strategy]:
    game = RoundGame(parse_game(name))
    tree = Tree.build(game.m)
    return game, tree, strategy_from_arrays(game, _solved_archive(), tree)


def solved_policy(rounds: Sequence[str] = SOLVED_ROUNDS) -> dict[str, Strategy]:
    """The shipped CFR+ solution of each round, as a tabular policy."""
    return {name: _round(name)[2] for name in rounds}


def round_result(name: str, policy: AnyBot | TabularPolicy, samples: int = 8,
                 seed: int = 0) -> RoundResult:
    """The exact exploitability of ``policy`` in the solved round ``name``, and its payoff
    against the shipped solution."""
    if name not in SOLVED_ROUNDS:
        raise ValueError(f"{name!r} is not a solved round: the solved rounds are "
                         f"{', '.join(SOLVED_ROUNDS)}")
    game, tree, solved = _round(name)
    if isinstance(policy, Mapping):
        if name not in policy:
            raise ValueError(f"the tabular policy has no strategy for {name!r} (it covers "
                             f"{', '.join(policy) or 'no round'})")
        strategy = policy[name]
    else:
        strategy = bot_strategy(game, policy, samples, seed, tree)
    e, br0, br1 = exploitability(game, strategy, tree)
    return RoundResult(name, e, (br0, br1), head_to_head(game, strategy, solved, tree),
                       game_value(game, solved, tree))


def level_result(policy: AnyBot, level: str, game: str = "bluff", games: int = 40,
                 seed: int = 0, rules: str = "") -> LevelResult:
    """``games`` heads-up games of ``policy`` against ``level``: the policy sits at seat
    ``g % 2`` in game ``g``, whose deal and generators come from ``(seed, g)`` alone."""
    spec = Spec(game, 2, ("policy", level), games, seed, rules)
    wins = draws = 0
    for g in range(games):
        mine = g % 2  # spec.lineup(g) rotates ("policy", level) by g places
        bots = [policy, make_bot(game, level)] if mine == 0 else [make_bot(game, level), policy]
        result = play_game(spec, g, bots)
        wins += result.winner == mine
        draws += result.winner is None
    return LevelResult(level, games, wins, draws, wins / games, wilson(wins, games))


def evaluate(policy: AnyBot | TabularPolicy, *, game: str = "bluff",
             rounds: Sequence[str] | None = None, levels: Sequence[str] = LEVELS,
             games: int = 40, seed: int = 0, samples: int = 8, rules: str = "",
             progress: Callable[[str], None] | None = None) -> Report:
    """Evaluate ``policy`` (a bot or a tabular policy: see the module docstring).

    :param rounds: the solved rounds to measure (Bluff only; by default every shipped one
        a tabular policy covers, or :data:`BOT_ROUNDS` for a bot).
    :param levels: the levels to play against (bots only; a tabular policy plays none).
    :param games: full games against each level (even: both seats equally often).
    :param seed: decides the game set; the same seed replays the same games.
    :param samples: draws per information state when reading a bot's solved-round policy.
    :param rules: the full games' rules text, as ``usotsuki tournament --rules`` takes it.
    :param progress: hears a line per round and per level as each is done.
    :raises ValueError: for an unknown game, level or round, or a game count below 1.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    tabular = isinstance(policy, Mapping)
    if rounds is None and isinstance(policy, Mapping):
        rounds = [r for r in SOLVED_ROUNDS if r in policy]
    elif rounds is None:
        rounds = BOT_ROUNDS if game == "bluff" else ()
    if rounds and game != "bluff":
        raise ValueError("the solved rounds are Bluff rounds: pass rounds=() for the Liar Game")
    round_rows = []
    for name in rounds:
        round_rows.append(round_result(name, policy, samples, seed))
        if progress:
            progress(round_rows[-1].line())
    level_rows = []
    for level in () if tabular else levels:
        assert not isinstance(policy, Mapping)
        level_rows.append(level_result(policy, level, game, games, seed, rules))
        if progress:
            progress(level_rows[-1].line())
    return Report(game, seed, samples, rules, tuple(round_rows), tuple(level_rows))


def load_policy(text: str, game: str) -> AnyBot | TabularPolicy:
    """``solved`` (the shipped solution, tabular), a bot name of ``game``, or
    ``module:attribute`` naming a bot, a tabular policy, or a callable returning one."""
    if text == "solved":
        return solved_policy()
    if ":" not in text:
        return make_bot(game, text)
    module, _, attribute = text.partition(":")
    found = getattr(importlib.import_module(module), attribute)
    if isinstance(found, type) or (callable(found) and not hasattr(found, "act")):
        found = found()  # a bot class or a factory
    if not (isinstance(found, Mapping) or hasattr(found, "act")):
        raise ValueError(f"{text} is neither a bot (with act) nor a tabular policy")
    return found  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Evaluate a policy: exploitability on the "
                                     "solved Bluff rounds, win shares against each level.")
    parser.add_argument("--policy", required=True,
                        help="'solved', a bot name, or module:attribute (a bot, a tabular "
                             "policy, or a callable returning one)")
    parser.add_argument("--game", default="bluff", choices=("bluff", "liar"))
    parser.add_argument("--rounds", default=None,
                        help="solved rounds, comma-separated ('none' for none; default: all "
                             "a tabular policy covers, the smaller ones for a bot)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="levels to play, comma-separated ('none' for none)")
    parser.add_argument("--games", type=int, default=40, help="games against each level")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--rules", default="")
    parser.add_argument("--out", type=Path, default=None, help="write the report as JSON")
    args = parser.parse_args(argv)

    def names(text: str | None) -> list[str] | None:
        if text is None:
            return None
        return [] if text == "none" else text.split(",")

    try:
        policy = load_policy(args.policy, args.game)
        report = evaluate(policy, game=args.game, rounds=names(args.rounds),
                          levels=names(args.levels) or (), games=args.games, seed=args.seed,
                          samples=args.samples, rules=args.rules,
                          progress=lambda line: print(line, flush=True))
    except (ValueError, ImportError, AttributeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.out is not None:
        args.out.write_text(json.dumps(report.to_json(), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
