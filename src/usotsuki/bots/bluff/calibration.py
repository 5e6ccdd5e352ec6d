"""Calibrated Bluff beliefs: the particle model's parameters fitted to how bots call.

The belief of :mod:`usotsuki.bots.bluff.belief` weighs deals by how well they explain the
round's calls (``support``, ``faith``); an unfitted guess is badly under-confident (calls
it put at 0.14 were true 45% of the time). Per population of players (the self-play games
of one level, and a mix of levels) the two parameters are fitted by maximum likelihood of
the observed truth of every call that was on the table at a decision (a round ends with a
challenge, so every call of the round is revealed true or false), then a logistic
recalibration ``sigmoid(slope * logit(p) + intercept)`` of the resulting probability, then
a monotone (isotonic) map (:mod:`usotsuki.research.bluff_fit`, run by
``benchmarks/bluff_calibration.py --fit``). The fitted numbers ship as data
(``calibration.json``) and this module applies them: ``normal`` and ``hard`` read calls by
``normal``'s fit (:func:`beliefs`: the particle weights for every call, the maps for the
current call only), the hints' :func:`usotsuki.bots.bluff.hints.calibrated_truth` by the
``mix``; ``expert`` reads calls with the ``search`` entry (support 2, faith 0.3, no map:
not fitted, the configuration that was measured in play). Each fit is of the bots as they
played when it ran: changing a bot calls for a refit.

A probability the seat's own cards make certain (0 or 1 by the exact odds) is never
moved: only the uncertain middle is recalibrated.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff.belief import BeliefModel, sample
from usotsuki.odds import call_probabilities

FloatArray = npt.NDArray[np.float64]
EPS = 1e-3


@dataclass(frozen=True, slots=True)
class Calibration:
    """One population's fitted belief: particle weights and the logistic recalibration."""

    support: float = 1.0
    faith: float = 0.3
    slope: float = 1.0
    intercept: float = 0.0
    knots: tuple[tuple[float, float], ...] = ()  # monotone map after the logistic one

    def model(self, particles: int) -> BeliefModel:
        return BeliefModel(particles=particles, support=self.support, faith=self.faith)


@cache
def calibrations() -> dict[str, Calibration]:
    """The shipped calibrations by population ("normal", "hard", "expert", "mix")."""
    text = resources.files("usotsuki.bots.bluff").joinpath("calibration.json").read_text()
    data = json.loads(text)
    out = {}
    for name, fields in data["populations"].items():
        knots = tuple((float(x), float(y)) for x, y in fields.get("knots", ()))
        out[name] = Calibration(float(fields["support"]), float(fields["faith"]),
                                float(fields["slope"]), float(fields["intercept"]), knots)
    return out


def calibration(population: str) -> Calibration:
    """The calibration fitted on ``population``'s games (the mix for an unknown name)."""
    table = calibrations()
    return table.get(population, table.get("mix", Calibration()))


def recalibrate(p: FloatArray, exact: FloatArray, cal: Calibration) -> FloatArray:
    """``p`` moved by the logistic recalibration, except where ``exact`` (the seat's own
    odds) is 0 or 1, or the call is not in the deck (negative, B13)."""
    q = np.clip(p, EPS, 1.0 - EPS)
    z = np.clip(cal.slope * np.log(q / (1.0 - q)) + cal.intercept, -30.0, 30.0)
    moved = 1.0 / (1.0 + np.exp(-z))
    if cal.knots:
        xs, ys = zip(*cal.knots, strict=True)
        moved = np.interp(moved, xs, ys)
    certain = (exact <= 0.0) | (exact >= 1.0)
    return np.where(certain | (p < 0.0), np.where(p < 0.0, p, exact), moved)


def calibrated_probabilities(v: BluffView, rng: random.Random, cal: Calibration,
                             particles: int = 256) -> FloatArray:
    """All 326 calls' calibrated probabilities for seat ``v.seat`` (0 for the calls a
    short deck lacks, B13)."""
    hand = v.hand or ()
    exact = call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)
    believed = sample(v, rng, cal.model(particles)).probabilities()
    return recalibrate(believed, exact, cal)


def calibrated_probability(v: BluffView, rng: random.Random, cal: Calibration, index: int,
                           particles: int = 256) -> float:
    """:func:`calibrated_probabilities` of call ``index`` alone (the same draws, so the
    same number)."""
    hand = v.hand or ()
    exact = call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)[index:index + 1]
    believed = sample(v, rng, cal.model(particles)).probability(index)
    return float(recalibrate(np.array([believed]), exact, cal)[0])


def beliefs(v: BluffView, rng: random.Random, cal: Calibration, particles: int
            ) -> tuple[FloatArray, float | None]:
    """What a bot acts on: every call's probability by the fitted particle weights alone
    (its candidate raises), and the current call's probability through the whole
    calibration (None without a current call).

    The recalibration map was fitted on calls someone chose to make (the current call at
    a decision), so it applies to the current call only: a hypothetical raise was chosen
    by nobody, and the map (which lifts weak-looking calls, since players seldom make
    hopeless ones) would make hopeless raises look plausible. Certain calls stay 0 or 1.
    """
    hand = v.hand or ()
    exact = call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)
    raw = sample(v, rng, cal.model(particles)).probabilities()
    believed = np.where((exact <= 0.0) | (exact >= 1.0), exact, raw)
    call = v.current_call
    if call is None:
        return believed, None
    return believed, float(recalibrate(raw, exact, cal)[call.index])
