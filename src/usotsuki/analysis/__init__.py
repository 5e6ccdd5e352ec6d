"""Game review: every call, play and doubt of a record judged from the acting seat's view.

Pure (no I/O, no clocks, no global randomness): a record in, a JSON-ready analysis out,
the same for the same record, seed and depth (each decision draws from its own
``random.Random`` seeded by the seed and the decision's place). The schema is described
in ``docs/analysis.md``. For each decision:

- the exact probability that the claim being judged is true, from the seat's view
  (Bluff: the current call and the call made, :mod:`usotsuki.odds`; Liar Game: that the
  last play is truthful, :func:`usotsuki.odds_liar.truth_probability`);
- the value of each candidate move, the seat's chance to win the game, with an error bar,
  from the expert's search through the seam of :mod:`usotsuki.analysis.search`; the best
  move, the chance lost by the move made, its accuracy and a mark
  (:mod:`usotsuki.analysis.common` gives the formula and how the marks are calibrated);
- luck: a challenge or doubt that went against its odds.

Then per player: accuracy (a percentage, higher is better), bluff rate, challenge/doubt
success, luck; and per replay frame each player's chance to win, for the chart.

The work splits into :func:`plan` (a cheap replay that lists the decisions),
:func:`judge_points` (any subset of them, e.g. in chunks across processes) and
:func:`assemble`; :func:`analyse` runs the three.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from usotsuki.analysis import bluff_review, liar_review
from usotsuki.analysis.bluff_review import NotAnalysable
from usotsuki.analysis.common import MARKS, THRESHOLDS, UNITS, Tally, luck
from usotsuki.analysis.search import Search
from usotsuki.core.record import RecordError, check_record_object

SCHEMA = "usotsuki.analysis/2"
DEFAULT_DEPTH = {"bluff": 120, "liar": 32}
"""Playouts per candidate move at the default depth (``--depth``)."""

Walk = bluff_review.Walk | liar_review.Walk
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Review:
    """One game's review: its record replayed into decisions, the expert's search, the
    judge of one decision and each seat's chance to win per frame."""

    walk: Callable[[Any], Walk]
    default_search: Callable[[int], Search[Any, Any]]
    judge: Callable[[Any, Search[Any, Any], random.Random], dict[str, Any]]
    win_series: Callable[[Any, list[dict[str, Any]]], list[list[float]]]
    challenge_judges_the_call: bool
    """Bluff: a challenge's outcome judges the challenged call's luck as well (B9: the
    caller wins when the call is true). The Liar Game judges the doubter's luck only."""


REVIEWS = {
    "bluff": Review(bluff_review.walk, bluff_review.default_search, bluff_review.judge,
                    bluff_review.win_series, challenge_judges_the_call=True),
    "liar": Review(liar_review.walk, liar_review.default_search, liar_review.judge,
                   liar_review.win_series, challenge_judges_the_call=False),
}

__all__ = ["DEFAULT_DEPTH", "MARKS", "REVIEWS", "SCHEMA", "NotAnalysable", "Review",
           "analyse", "assemble", "judge_points", "plan"]


def plan(record: Any) -> Walk:
    """The record's decisions, replayed. :raises NotAnalysable: saying why not."""
    try:
        game = check_record_object(record)
    except RecordError as exc:  # as ``usotsuki replay`` says it
        raise NotAnalysable(exc.fault.message, exc.fault) from None
    return REVIEWS[game].walk(record)


def judge_points(walk: Walk, indices: Sequence[int], seed: int | str, depth: int,
                 search: Search[Any, Any] | None = None,
                 progress: Callable[[], None] | None = None) -> list[dict[str, Any]]:
    """The decisions ``walk.points[i]`` for ``i`` in ``indices``, judged."""
    review = REVIEWS[walk.game]
    engine = search or review.default_search(depth)
    out = []
    for i in indices:
        point = walk.points[i]
        rng = random.Random(f"{seed}/{point.round}/{point.index}")
        out.append(review.judge(point, engine, rng))
        if progress is not None:
            progress()
    return out


def assemble(walk: Walk, decisions: list[dict[str, Any]], seed: int | str,
             depth: int) -> dict[str, Any]:
    """The whole analysis from every judged decision (in order)."""
    review = REVIEWS[walk.game]
    tallies = [Tally(s, name) for s, name in enumerate(walk.names)]
    last_call: dict[int, dict[str, Any]] = {}
    for d in decisions:
        t = tallies[d["seat"]]
        if d["mark"] is not None:
            t.judged += 1
            t.accuracies.append(d["accuracy"])
            t.marks[d["mark"]] += 1
        if d["true"] is not None:
            t.claims += 1
            t.bluffs += not d["true"]
            last_call[d["round"]] = d
        if d["won"] is not None:
            t.tests += 1
            t.tests_won += d["won"]
            if d["p_win"] is not None:
                t.luck += d["won"] - d["p_win"]
            t.lucky += d["luck"] == "lucky"
            t.unlucky += d["luck"] == "unlucky"
            call = last_call.get(d["round"])
            odds = None if call is None else call["p_belief_action"]
            if review.challenge_judges_the_call and call is not None and odds is not None:
                # B9: the caller wins the challenge when the call is true
                caller = tallies[call["seat"]]
                call["luck"] = luck(odds, not d["won"])
                caller.luck += (not d["won"]) - odds
                caller.lucky += call["luck"] == "lucky"
                caller.unlucky += call["luck"] == "unlucky"
    win = review.win_series(walk, decisions)
    return {
        "schema": SCHEMA, "game": walk.game, "players": walk.players,
        "names": list(walk.names), "seed": seed, "depth": depth,
        "finished": walk.finished, "frames": walk.frames,
        "unit": UNITS[walk.game], "thresholds": dict(zip(MARKS[1:], THRESHOLDS[walk.game],
                                                         strict=True)),
        "summary": [t.to_json() for t in tallies],
        "decisions": decisions,
        "win": win,
    }


def analyse(record: Any, seed: int | str = 0, depth: int | None = None,
            progress: Progress | None = None,
            search: Search[Any, Any] | None = None) -> dict[str, Any]:
    """The review of a record (module docstring). ``depth``: playouts per candidate
    (default :data:`DEFAULT_DEPTH`); ``progress(done, total)`` is called after each
    decision; ``search`` replaces the expert's (the seam).

    :raises NotAnalysable: when the record does not replay."""
    walk = plan(record)
    depth = DEFAULT_DEPTH[walk.game] if depth is None else depth
    if depth < 1:
        raise NotAnalysable(f"the depth is a number of playouts, at least 1, not {depth}")
    total = len(walk.points)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    decisions = judge_points(walk, range(total), seed, depth, search, step)
    return assemble(walk, decisions, seed, depth)
