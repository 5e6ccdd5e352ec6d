"""What both games' reviews share: estimates with error bars, marks, accuracy, luck.

One scale. Every value is the acting seat's **chance to win the game**
(:mod:`usotsuki.analysis.win_chance`), higher is better; a move's **value lost** is the
best candidate's value minus its own.

Marks. A loss smaller than its own error bar (two standard errors of the difference) is
never marked: the search could not tell the two moves apart. Beyond it, the thresholds
below turn the loss into an **inaccuracy**, a **mistake** or a **blunder**. They are set
on the shipped expert's self-play (``benchmarks/review_calibration.py`` measures and
prints the rates): the expert itself averages at most one mistake and well under one
blunder a game, so a mark says the move was worse than the expert's own play is.

Accuracy, as lichess shows it: a percentage, higher is better. A move's accuracy is
``103.1668 * exp(-0.04354 * L) - 3.1669`` (clamped to 0..100), ``L`` its value lost in
percentage points of the chance to win (lichess's formula, fitted there on win-percentage
drops: 0 points lost is 100%, 5 points about 80%, 20 points about 40%). A player's
accuracy over a game is the mean of the arithmetic and harmonic means of its moves'
(lichess weights the arithmetic mean by the game's volatility as well; the harmonic mean
is what makes a few bad moves cost more than many good ones earn).

**Lucky/unlucky**: a challenge or doubt whose outcome had a chance below
:data:`LUCK_ODDS` from the player's own view (3 to 1 against or worse).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MARKS = ("good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = {"bluff": (0.03, 0.08, 0.20), "liar": (0.03, 0.08, 0.20)}
"""Chance to win lost from which a move is an inaccuracy, a mistake, a blunder (above)."""
UNITS = {"bluff": "chance to win the game", "liar": "chance to win the game"}
LUCK_ODDS = 0.25
Z = 2.0  # error bars are two standard errors (about 95%)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A value with its error bar (``Z`` standard errors). ``samples`` are the per-playout
    values when the estimate is a plain mean of playouts that every candidate of the
    decision shared (common random numbers), so two moves can be compared pairwise."""

    value: float
    error: float
    samples: tuple[float, ...] | None = None


def mean_estimate(samples: Sequence[float], bounded: bool = False) -> Estimate:
    """The mean of ``samples`` and ``Z`` standard errors. ``bounded``: the samples are
    0/1 outcomes; the Agresti-Coull variance keeps a bar at 0 or 1 from being nothing."""
    n = len(samples)
    mean = sum(samples) / n
    if bounded:
        p = (sum(samples) + 2) / (n + 4)
        return Estimate(mean, Z * math.sqrt(p * (1 - p) / (n + 4)), tuple(samples))
    var = sum((x - mean) ** 2 for x in samples) / max(1, n - 1)
    return Estimate(mean, Z * math.sqrt(var / n), tuple(samples))


def difference_error(a: Estimate, b: Estimate) -> float:
    """``Z`` standard errors of ``a.value - b.value``: paired when both come from the same
    playouts, else as independent estimates."""
    if a.samples is not None and b.samples is not None and len(a.samples) == len(b.samples) \
            and len(a.samples) > 1:
        d = [x - y for x, y in zip(a.samples, b.samples, strict=True)]
        m = sum(d) / len(d)
        var = sum((x - m) ** 2 for x in d) / (len(d) - 1)
        return Z * math.sqrt(var / len(d))
    return math.hypot(a.error, b.error)


def mark(game: str, lost: float, error: float) -> str:
    """The mark for a move that lost ``lost`` with an error bar ``error`` (module doc)."""
    if lost <= error:
        return "good"
    grade = sum(lost >= t for t in THRESHOLDS[game])
    return MARKS[grade]


def move_accuracy(lost: float) -> float:
    """A move's accuracy in percent from its value lost (module docstring)."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * 100.0 * lost) - 3.1669))


def game_accuracy(accuracies: Sequence[float]) -> float | None:
    """A player's accuracy over its judged moves (module docstring); None without any."""
    if not accuracies:
        return None
    mean = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(a, 1.0) for a in accuracies)
    return (mean + harmonic) / 2.0


def luck(p_win: float, won: bool) -> str | None:
    """``lucky`` for a win that had less than :data:`LUCK_ODDS`, ``unlucky`` for a loss
    that had more than ``1 - LUCK_ODDS`` to win; else None."""
    if won and p_win < LUCK_ODDS:
        return "lucky"
    if not won and p_win > 1 - LUCK_ODDS:
        return "unlucky"
    return None


@dataclass
class Tally:
    """One player's running summary (docs/analysis.md, ``summary``)."""

    seat: int
    name: str
    judged: int = 0
    accuracies: list[float] = field(default_factory=list)
    marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    claims: int = 0  # Bluff calls, Liar Game plays
    bluffs: int = 0  # of those, false (all hands known afterwards)
    tests: int = 0  # challenges or doubts made
    tests_won: int = 0
    luck: float = 0.0  # outcomes of challenges and doubts above their odds
    lucky: int = 0
    unlucky: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name, "judged": self.judged,
            "accuracy": rounded(game_accuracy(self.accuracies), 1),
            "marks": dict(self.marks),
            "claims": self.claims, "bluffs": self.bluffs,
            "bluff_rate": round(self.bluffs / self.claims, 4) if self.claims else None,
            "tests": self.tests, "tests_won": self.tests_won,
            "test_success": round(self.tests_won / self.tests, 4) if self.tests else None,
            "luck": round(self.luck, 4), "lucky": self.lucky, "unlucky": self.unlucky,
        }


def rounded(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def estimate_json(action: str, e: Estimate) -> dict[str, Any]:
    return {"action": action, "value": round(e.value, 4), "error": round(e.error, 4)}
