"""Where a Bluff level loses its rounds, decision by decision.

Plays seeded games of one line-up (default ``expert`` against three ``hard``) and logs
every decision with its kind, judged on the true deal after the round:

- ``first``: the round's first call; ``raise``: a call over another; each split by
  whether the call was true in the deal (``T``/``F``);
- ``chal``: a challenge, split by whether the challenged call was true (``T``: the
  challenger loses, B9) or false;

and whether the deciding seat lost the round. For each bot name: how often each kind
occurs and how often the seat that made it lost the round. For the searching levels the
search's own estimate of the chosen action's chance of losing is logged too (so its
calibration can be read: predicted against observed per kind).

``--oracle N``: for N decisions of the first bot of the line-up, every action the bot
considered (and the one ``--against`` would take at the same view) is valued by playing
the rest of the round ``--rollouts`` times from the true state with the actual bots
(the seat's own later decisions included): an unbiased value of each action given the
information (the true deal is a draw from the real posterior), so the mean over
decisions of (value of the bot's choice - value of the other's choice) says which rule
loses fewer rounds at these positions, per kind.

    python benchmarks/bluff_expert_diag.py [--lineup expert,hard,hard,hard] [--games 40]
        [--seed 5] [--oracle 200] [--rollouts 16] [--against hard] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from usotsuki.bluff.actions import ALL_CALLS, CHALLENGE
from usotsuki.bots.base import make_bot
from usotsuki.session import BluffSession
from usotsuki.tournament import Spec, play_game, wilson


class Logged:
    """Wraps a bot: remembers the search's candidates and values of its last decision."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.last: tuple[list[int], np.ndarray] | None = None
        search = getattr(bot, "search", None)
        if search is not None:
            def spy(*args: Any, **kw: Any) -> Any:
                out = search(*args, **kw)
                self.last = out
                return out
            bot.search = spy

    def act(self, v: Any, legal: Any, rng: random.Random) -> Any:
        self.last = None
        return self.bot.act(v, legal, rng)


def kind_of(session: BluffSession, action: Any) -> tuple[str, bool]:
    """The decision's kind and the truth (in the deal) of the call it made or challenged."""
    state = session.state
    hands = state.hands
    assert hands is not None
    cards = {c for h in hands for c in h}
    if action == CHALLENGE:
        call = state.current_call
        assert call is not None
        return "chal", _true(call, cards)
    return ("first" if state.current_call is None else "raise"), _true(action, cards)


def _true(call: Any, cards: set[Any]) -> bool:
    from usotsuki.odds import call_probability

    return call_probability(call, tuple(cards), 0) >= 1.0  # every card seen: 1 or 0 (B8)


def play_round_out(session: BluffSession, bots: list[Any], rngs: list[random.Random]) -> int:
    """Play to the end of the current round; the loser's seat (B9)."""
    done = len(session.state.results)
    while len(session.state.results) == done:
        seat = session.to_move
        assert seat is not None
        session, _ = session.apply(bots[seat].act(session.view(seat), session.legal(),
                                                  rngs[seat]))
    return session.state.results[-1].loser


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lineup", default="expert,hard,hard,hard")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--oracle", type=int, default=0)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--against", default="hard")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    lineup = tuple(args.lineup.split(","))
    spec = Spec("bluff", len(lineup), lineup, args.games, args.seed)
    rows: list[dict[str, Any]] = []
    oracle: list[dict[str, Any]] = []
    other = make_bot("bluff", args.against)
    wins: dict[str, float] = defaultdict(float)
    for g in range(spec.games):
        names = spec.lineup(g)
        bots = [Logged(make_bot("bluff", n)) for n in names]
        pending: list[dict[str, Any]] = []

        def observe(session: BluffSession, seat: int, action: Any, after: BluffSession,
                    g: int = g, names: tuple[str, ...] = names, bots: list[Logged] = bots,
                    pending: list[dict[str, Any]] = pending) -> None:
            v = session.view(seat)
            kind, true = kind_of(session, action)
            row: dict[str, Any] = {"game": g, "bot": names[seat], "seat": seat, "kind": kind,
                                   "true": true, "calls": len(v.calls),
                                   "cards": v.cards_in_play, "players": sum(
                                       1 for n in v.hand_sizes if n)}
            last = bots[seat].last
            index = -1 if action == CHALLENGE else action.index
            if v.current_call is not None:
                from usotsuki.odds import call_probabilities

                hand = v.hand or ()
                row["exact"] = float(call_probabilities(hand, v.cards_in_play - len(hand))[
                    v.current_call.index])
                row["current_true"] = _true(v.current_call, {c for h in session.state.hands
                                                              or () for c in h})
            if last is not None:
                acts, loss = last
                if -1 in acts:
                    row["p_current"] = float(loss[acts.index(-1)])
                if index in acts:
                    row["predicted"] = float(loss[acts.index(index)])
                row["best_predicted"] = float(loss.min())
            if (args.oracle and len(oracle) < args.oracle and names[seat] == lineup[0]
                    and last is not None and len(last[0]) > 1):
                oracle.append(value_actions(session, names, v, index, last, other, args, g,
                                            kind, true))
            pending.append(row)
            if len(after.state.results) > len(session.state.results):
                loser = after.state.results[-1].loser
                for r in pending:
                    r["lost"] = r["seat"] == loser
                rows.extend(pending)
                pending.clear()

        result = play_game(spec, g, bots=bots, observe=observe)
        assert result.winner is not None
        wins[names[result.winner]] += 1
        print(f"game {g}: winner {names[result.winner]}", flush=True)
    report(rows, oracle, wins, spec)
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "oracle": oracle}) + "\n")
    return 0


def value_actions(session: BluffSession, names: tuple[str, ...], v: Any, chosen: int,
                  last: tuple[list[int], np.ndarray], other: Any, args: argparse.Namespace,
                  g: int, kind: str, true: bool) -> dict[str, Any]:
    """Every candidate's chance of losing the round, by playing it out with the real bots
    on the true deal (``args.rollouts`` times; a challenge is exact)."""
    seat = v.seat
    acts, predicted = last
    rng = random.Random(f"oracle:{args.seed}:{g}:{len(v.calls)}:{v.round}")
    theirs = other.act(v, session.legal(), random.Random(rng.getrandbits(64)))
    their_index = -1 if theirs == CHALLENGE else theirs.index
    candidates = sorted(set(acts) | {chosen, their_index})
    values = {}
    for a in candidates:
        action = CHALLENGE if a < 0 else ALL_CALLS[a]
        after, _ = session.apply(action)
        if a < 0:
            values[a] = float(after.state.results[-1].loser == seat)
            continue
        lost = 0
        for r in range(args.rollouts):
            bots = [make_bot("bluff", n) for n in names]
            rngs = [random.Random(f"{rng.random()}:{r}:{s}") for s in range(len(names))]
            lost += play_round_out(after, bots, rngs) == seat
        values[a] = lost / args.rollouts
    return {"game": g, "kind": kind, "true": true, "calls": len(v.calls), "chosen": chosen,
            "theirs": their_index, "values": {str(k): x for k, x in values.items()},
            "predicted": {str(a): float(p) for a, p in zip(acts, predicted, strict=True)}}


def report(rows: list[dict[str, Any]], oracle: list[dict[str, Any]], wins: dict[str, float],
           spec: Spec) -> None:
    total = sum(wins.values())
    for name, w in sorted(wins.items()):
        lo, hi = wilson(int(w), int(total))
        print(f"{name}: won {w:.0f}/{total:.0f} games = {w / total:.3f} [{lo:.3f}, {hi:.3f}]")
    print("\nper bot and kind: count (share of its decisions), lost the round, predicted")
    for name in sorted({r["bot"] for r in rows}):
        mine = [r for r in rows if r["bot"] == name]
        rounds_lost = sum(r["lost"] for r in mine)
        print(f"{name}: {len(mine)} decisions")
        for kind in ("first", "raise", "chal"):
            for true in (True, False):
                sel = [r for r in mine if r["kind"] == kind and r["true"] == true]
                if not sel:
                    continue
                lost = sum(r["lost"] for r in sel)
                pred = [r["predicted"] for r in sel if "predicted" in r]
                ptxt = f" predicted {np.mean(pred):.3f} (n={len(pred)})" if pred else ""
                print(f"  {kind:5} {'T' if true else 'F'}: {len(sel):5} "
                      f"({len(sel) / len(mine):.3f}) lost {lost / len(sel):.3f} "
                      f"(= {lost / max(1, rounds_lost):.3f} of its lost rounds){ptxt}")
        print(f"  rounds lost after its decisions: {rounds_lost}")
    if oracle:
        print(f"\noracle: {len(oracle)} decisions of {spec.bots[0]}")
        by: dict[str, list[float]] = defaultdict(list)
        gap: dict[str, list[float]] = defaultdict(list)
        for o in oracle:
            vals = {int(k): x for k, x in o["values"].items()}
            key = o["kind"] + ("T" if o["true"] else "F")
            by[key].append(vals[o["chosen"]] - vals[o["theirs"]])
            gap[key].append(vals[o["chosen"]] - min(vals.values()))
        for key in sorted(by):
            d = np.array(by[key])
            print(f"  {key:7} n={d.size:4} mean(chosen - {key and 'other'}) = {d.mean():+.4f} "
                  f"(se {d.std(ddof=1) / np.sqrt(d.size) if d.size > 1 else 0:.4f}); "
                  f"chosen - hindsight best {np.mean(gap[key]):+.4f}")
        d = np.concatenate([np.array(x) for x in by.values()])
        print(f"  all     n={d.size:4} mean {d.mean():+.4f} (se "
              f"{d.std(ddof=1) / np.sqrt(d.size):.4f})")


if __name__ == "__main__":
    sys.exit(main())
