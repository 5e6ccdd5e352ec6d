"""How far the Bluff bots are from optimal play in the solved rounds: each bot level as a
tabular policy of a :class:`~usotsuki.research.round.RoundGame`, its exploitability, and
its result against the solved strategy.

A bot's policy is read off its own actions: at every information state its own play
reaches (the opponent's are all explored), the bot acts on the core's view of a core
state dealt with representative cards, ``samples`` times with different generators
(1 for a deterministic bot: a point mass). A call the tree lacks (it cannot be true with
the cards in play) is kept as a *forfeit*: the best reply challenges it and wins.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from usotsuki.bluff import (
    BluffRules,
    BluffState,
    Challenge,
    deal_unchecked,
    legal_actions,
    new_game,
)
from usotsuki.bluff import push as core_push
from usotsuki.bluff import view as core_view
from usotsuki.bluff.deal import deck
from usotsuki.research.cfr import Strategy, Tree, game_value, uniform, values
from usotsuki.research.round import RoundGame


def _start(game: RoundGame) -> BluffState:
    a, b = game.spec.sizes
    rules = BluffRules(players=2, max_cards=max(a, b) + 1, ranks=game.spec.ranks,
                       dealer=1)  # B4: seat 0 calls first
    return dataclasses.replace(new_game(rules), losses=(a - 1, b - 1))


def _deal(game: RoundGame, seat: int, hand: int) -> BluffState:
    """A core state whose ``seat`` holds the hand by rank (other cards fill the rest)."""
    mine = []
    used: dict[int, int] = {}
    for r in game.hands[seat][hand]:
        mine.append(next(c for c in deck(game.spec.ranks) if c.rank == r
                         and c.suit == used.get(r, 0)))
        used[r] = used.get(r, 0) + 1
    rest = [c for c in deck(game.spec.ranks) if c not in mine][:game.spec.sizes[1 - seat]]
    hands = (tuple(mine), tuple(rest)) if seat == 0 else (tuple(rest), tuple(mine))
    return deal_unchecked(_start(game), hands)


def bot_strategy(game: RoundGame, bot: Any, samples: int = 1, seed: int = 0,
                 tree: Tree | None = None) -> Strategy:
    """``bot`` in both seats as a :class:`Strategy` (with forfeits), read off its actions."""
    tree = tree or Tree.build(game.m)
    s = uniform(game, tree)
    forfeit = [np.zeros_like(s.challenge[0]), np.zeros_like(s.challenge[1])]
    rng = random.Random(seed)
    for seat in (0, 1):
        for h in range(len(game.hands[seat])):
            dealt = _deal(game, seat, h)
            stack = [0]
            while stack:
                node = stack.pop()
                high = node.bit_length() - 1
                if tree.actor[node] != seat:
                    stack.extend(node | 1 << j for j in range(high + 1, game.m))
                    continue
                state = dealt
                for j in range(game.m):
                    if node >> j & 1:
                        state = core_push(state, game.calls[j])
                v = core_view(state, seat)
                legal = legal_actions(state)
                counts: dict[Any, int] = {}
                for _ in range(samples):
                    a = bot.act(v, legal, random.Random(rng.getrandbits(64)))
                    counts[a] = counts.get(a, 0) + 1
                for j in range(high + 1, game.m):
                    s.call[seat][node | 1 << j, h] = 0.0
                if node:
                    s.challenge[seat][node, h] = 0.0
                for a, k in counts.items():
                    p = k / samples
                    if isinstance(a, Challenge):
                        s.challenge[seat][node, h] = p
                        continue
                    pos = game.call_position(a)
                    if pos is None:
                        forfeit[seat][node, h] += p  # a call that cannot be true
                    else:
                        s.call[seat][node | 1 << pos, h] = p
                        stack.append(node | 1 << pos)
    s.forfeit = forfeit
    return s


def head_to_head(game: RoundGame, bot: Strategy, solved: Strategy,
                 tree: Tree | None = None) -> tuple[float, float]:
    """The bot's expected payoff against the solved strategy: as the first caller, and
    as the other seat (compare with the solved value and its negation)."""
    tree = tree or Tree.build(game.m)
    out = []
    for seat in (0, 1):
        mix = Strategy([bot.call[0] if seat == 0 else solved.call[0],
                        bot.call[1] if seat == 1 else solved.call[1]],
                       [bot.challenge[0] if seat == 0 else solved.challenge[0],
                        bot.challenge[1] if seat == 1 else solved.challenge[1]],
                       [bot.forfeit[0] * (seat == 0), bot.forfeit[1] * (seat == 1)]
                       if bot.forfeit is not None else None)
        # Zero-sum: the bot's payoff is minus the other seat's, whose values count the
        # bot's forfeits.
        out.append(-float(values(game, tree, mix, 1 - seat)[0].sum()))
    return out[0], out[1]


def evaluate(names: list[str], bots: dict[str, tuple[Callable[[], Any], int]],
             archive: Path) -> list[dict[str, Any]]:
    """Exploitability and head-to-head results of each bot in each solved round."""
    from usotsuki.research.cfr import exploitability
    from usotsuki.research.export import strategy_from_arrays
    from usotsuki.research.solve import parse_game

    rows = []
    with np.load(archive) as arrays:
        for name in names:
            game = RoundGame(parse_game(name))
            tree = Tree.build(game.m)
            solved = strategy_from_arrays(game, arrays, tree)
            v = game_value(game, solved, tree)
            for bot_name, (make, samples) in bots.items():
                began = time.perf_counter()
                bs = bot_strategy(game, make(), samples, tree=tree)
                e = exploitability(game, bs, tree)
                h2h = head_to_head(game, bs, solved, tree)
                row = {"game": name, "bot": bot_name, "samples": samples,
                       "exploitability": e[0], "best_response": [e[1], e[2]],
                       "solved_value_seat0": v, "vs_solved": list(h2h),
                       "vs_solved_gap": [h2h[0] - v, h2h[1] + v],
                       "seconds": round(time.perf_counter() - began, 1)}
                rows.append(row)
                print(f"{name} {bot_name}: exploitability {e[0]:.4f}; vs solved "
                      f"{h2h[0]:+.4f} first (solved {v:+.4f}), {h2h[1]:+.4f} second "
                      f"(solved {-v:+.4f}) [{row['seconds']} s]", flush=True)
    return rows


def table(rows: list[dict[str, Any]], solved: list[dict[str, Any]]) -> str:
    """docs/solver.md's summary: each level's exploitability per solved round. The
    ``expert`` plays the stored strategy in every shipped round, so its column is the
    stored strategy's exploitability (``solved``: results.json's rows)."""
    from usotsuki.research.solve import DEFAULT_GAMES

    levels = ("easy", "normal", "hard", "expert-search")
    found = {(r["game"], r["bot"]): r for r in rows}
    stored = {r["game"]: r["exploitability_stored"] for r in solved}
    lines = ["| round | easy | normal | hard | expert's own search | expert |",
             "|---|---|---|---|---|---|"]
    for name in DEFAULT_GAMES.split(","):
        cells = [f"{found[name, b]['exploitability']:.3f}" if (name, b) in found
                 else "not measured" for b in levels]
        expert = f"{stored[name]:.1e}" if name in stored else "not shipped"
        lines.append(f"| {name} | {' | '.join(cells)} | {expert} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from usotsuki.bots.bluff.levels import (
        EXPERT,
        EasyBluffBot,
        ExpertBluffBot,
        HardBluffBot,
        NormalBluffBot,
    )
    from usotsuki.bots.bluff.search import SearchBluffBot

    parser = argparse.ArgumentParser(description="Exploitability of the Bluff bots.")
    parser.add_argument("--games", default="r4-1v1,r4-1v2,r4-2v1,r5-1v1,r6-1v1")
    parser.add_argument("--bots", default="easy,normal,hard,expert-search")
    parser.add_argument("--expert-games", default="r4-1v1")
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--data", type=Path, default=Path("src/usotsuki/data/solved_bluff.npz"))
    parser.add_argument("--out", type=Path, default=Path("docs/solver/bots.json"))
    parser.add_argument("--table", action="store_true",
                        help="print OUT and OUT's results.json as docs/solver.md's summary")
    args = parser.parse_args(argv)
    if args.table:
        results = json.loads((args.out.parent / "results.json").read_text())
        print(table(json.loads(args.out.read_text()), results))
        return 0
    levels: dict[str, tuple[Callable[[], Any], int]] = {
        "easy": (EasyBluffBot, args.samples), "normal": (NormalBluffBot, 1),
        "hard": (HardBluffBot, args.samples),
        # The expert plays the stored equilibrium in a shipped round; its own search
        # (what it plays everywhere else) is measured on its own.
        "expert": (ExpertBluffBot, max(2, args.samples // 4)),
        "expert-search": (lambda: SearchBluffBot(EXPERT), max(2, args.samples // 4))}
    chosen = {k: levels[k] for k in args.bots.split(",")}
    # Rows of other rounds and bots already in the output are kept.
    rows = json.loads(args.out.read_text()) if args.out.exists() else []
    for name in args.games.split(","):
        bots = {k: v for k, v in chosen.items()
                if not k.startswith("expert") or name in args.expert_games.split(",")}
        new = evaluate([name], bots, args.data)
        done = {(r["game"], r["bot"]) for r in new}
        rows = [r for r in rows if (r["game"], r["bot"]) not in done] + new
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
