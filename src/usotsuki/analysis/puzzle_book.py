"""The shipped puzzles (package data ``usotsuki/data/puzzles_{game}.jsonl.gz``): loading,
what a solver is shown, the choice of the next puzzle and the checking of an answer.

What a solver is shown is the acting seat's view and nothing else: :func:`shown` builds it
from the puzzle's record through the review's walk (:func:`usotsuki.analysis.puzzles.
position`), so the other seats' cards stay in the data and never reach a page or a
terminal.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from usotsuki import bluff, liar
from usotsuki.analysis.puzzles import Position, position
from usotsuki.core.errors import UsotsukiError
from usotsuki.liar.actions import CARD_RATE, Play

GAMES = ("bluff", "liar")
STREAK_START, STREAK_STEP = 1100.0, 40.0
"""Streak mode: the n-th puzzle of a streak is the nearest to ``START + n * STEP``."""


@cache
def load(game: str) -> tuple[dict[str, Any], ...]:
    """Every shipped puzzle of ``game``, sorted by id.

    :raises KeyError: for a game that is not ``bluff`` or ``liar``."""
    if game not in GAMES:
        raise KeyError(game)
    data = resources.files("usotsuki") / "data" / f"puzzles_{game}.jsonl.gz"
    with data.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f if line.strip())


@cache
def _by_id() -> dict[str, dict[str, Any]]:
    return {p["id"]: p for game in GAMES for p in load(game)}


def find(puzzle_id: str) -> dict[str, Any] | None:
    return _by_id().get(puzzle_id)


def choose(game: str, target: float, seen: Iterable[str] = (), rng: random.Random | None = None,
           ratings: dict[str, float] | None = None) -> dict[str, Any]:
    """A puzzle of ``game`` near ``target`` (a player's rating, or a streak's step), one not
    in ``seen`` while any is left: one of the ten nearest, at random, so that two players
    of one rating do not meet the same sequence. ``ratings``: puzzles' current ratings
    where they have moved from the shipped ones."""
    ratings = ratings or {}
    skip = set(seen)
    pool = [p for p in load(game) if p["id"] not in skip] or list(load(game))
    pool.sort(key=lambda p: abs(ratings.get(p["id"], p["rating"]) - target))
    return (rng or random.Random()).choice(pool[:10])


def streak_target(solved: int) -> float:
    return STREAK_START + solved * STREAK_STEP


def shown(puzzle: dict[str, Any]) -> dict[str, Any]:
    """What a solver sees: the seat's view, the moves to choose from (the expert's
    candidates, in notation order so the order gives nothing away), the question and the
    themes; never the answer, the move made in the game nor the other hands."""
    pos = position(puzzle)
    choices = sorted(o["action"] for o in puzzle["options"])
    return {"id": puzzle["id"], "game": puzzle["game"], "seat": pos.seat,
            "question": puzzle["question"], "themes": puzzle["themes"],
            "rating": puzzle["rating"], "view": pos.view.to_json(), "choices": choices}


@dataclass(frozen=True, slots=True)
class Verdict:
    solved: bool
    move: str  # the answer, in canonical notation
    best: str
    value: float | None  # the answer's chance to win, when the expert weighed it
    best_value: float


class BadAnswer(ValueError):
    """An answer that is not notation, or not a legal move in the puzzle's position."""


def check(puzzle: dict[str, Any], text: str) -> Verdict:
    """Is ``text`` the puzzle's answer? Legal moves only; a move equal to the best one counts
    (Liar Game: the same rate with cards of the same rates, in any order or suits, unless
    binding (O6) makes suits matter).

    :raises BadAnswer: saying why, for notation that does not parse or an illegal move."""
    pos = position(puzzle)
    move = _legal_move(pos, text)
    best = puzzle["best"]
    values = {o["action"]: o["value"] for o in puzzle["options"]}
    solved = _same(pos.game, pos.view, move, best)
    value = values.get(best) if solved else values.get(move)
    return Verdict(solved, move, best, value, values[best])


def _legal_move(pos: Position, text: str) -> str:
    """``text`` in canonical notation, if it parses and the rules allow it in the position.

    :raises BadAnswer: with the core's reason (the rule's code in it)."""
    core: Any = bluff if pos.game == "bluff" else liar
    try:
        action = core.parse_action(text)
        core.apply(pos.state, action)
    except UsotsukiError as exc:
        raise BadAnswer(str(exc)) from None
    text_out: str = core.format_action(action)
    return text_out


def _same(game: str, view: Any, move: str, best: str) -> bool:
    if move == best or game == "bluff":
        return move == best
    a, b = liar.parse_action(move), liar.parse_action(best)
    if isinstance(a, Play) and isinstance(b, Play) and not view.rules.binding:
        return a.rate == b.rate and sorted(CARD_RATE[c] for c in a.cards) == sorted(
            CARD_RATE[c] for c in b.cards)
    return False
