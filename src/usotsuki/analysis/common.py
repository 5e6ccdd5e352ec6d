"""What both games' reviews share: estimates with error bars, marks, luck, summaries.

Marks. A decision's **value lost** is its estimated value minus the best candidate's
(Bluff: the probability of losing the round; Liar Game: the expected finishing place,
1 for first; both: lower is better). The thresholds below turn it into a mark:

- Bluff, in probability of losing the round. With 5 players a round costs each one a
  life a fifth of the time on average; an **inaccuracy** (0.05) gives away a quarter of
  that fair share, a **mistake** (0.12) more than half, a **blunder** (0.25) more than a
  whole fair share: that round's life is as good as handed over.
- Liar Game, in places (1 is first). With 4 players a seat's fair mean place is 2.5 and
  one place is the whole gap between two neighbours in the standings: an
  **inaccuracy** (0.15) costs a seventh of a place, a **mistake** (0.35) a third, a
  **blunder** (0.7) most of a place, e.g. a doubt that draws a big field when the play
  was likely truthful, or accepting (L10) a last play that was likely a lie.

A loss smaller than its own error bar (two standard errors of the difference) is never
marked: the search could not tell the two moves apart. **Lucky/unlucky**: a challenge or
doubt whose outcome had a chance below :data:`LUCK_ODDS` from the player's own view
(3 to 1 against or worse).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MARKS = ("good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = {"bluff": (0.05, 0.12, 0.25), "liar": (0.15, 0.35, 0.7)}
"""Value lost from which a move is an inaccuracy, a mistake, a blunder (see above)."""
UNITS = {"bluff": "probability of losing the round",
         "liar": "expected finishing place (1 is first)"}
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
    """One player's running summary (see :func:`summary_json`)."""

    seat: int
    name: str
    judged: int = 0
    lost: float = 0.0
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
            "accuracy": round(self.lost / self.judged, 4) if self.judged else None,
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
