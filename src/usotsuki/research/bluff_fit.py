"""Fitting the Bluff bots' calibration (offline): the maximum-likelihood fits behind
``src/usotsuki/bots/bluff/calibration.json``, which :mod:`usotsuki.bots.bluff.calibration`
applies at play.

``benchmarks/bluff_calibration.py --fit`` plays the self-play games and calls :func:`fit`;
``benchmarks/bluff_many_map.py`` fits the challenge maps with :func:`fit_logistic` and
:func:`isotonic_knots`. :func:`reliability` and :func:`brier` report a fit on held-out
games.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff.belief import sample
from usotsuki.bots.bluff.calibration import EPS, Calibration, FloatArray, recalibrate
from usotsuki.odds import call_probabilities


def _logit(p: FloatArray) -> FloatArray:
    q = np.clip(p, EPS, 1.0 - EPS)
    return np.asarray(np.log(q / (1.0 - q)), dtype=np.float64)


def fit_logistic(x: FloatArray, y: FloatArray, iterations: int = 100
                 ) -> tuple[float, float, float]:
    """Maximum-likelihood ``(slope, intercept)`` of ``P(y) = sigmoid(slope * x +
    intercept)`` by damped Newton steps (a small ridge keeps separable data finite), and
    the mean log-likelihood reached."""

    def loglik(a: float, b: float) -> float:
        z = a * x + b
        # log sigmoid(z) = -logaddexp(0, -z), stable for any z
        ll = -(y * np.logaddexp(0.0, -z) + (1 - y) * np.logaddexp(0.0, z))
        return float(ll.sum() - 0.5e-2 * (a * a + b * b))

    a, b = 1.0, 0.0
    current = loglik(a, b)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(a * x + b, -30, 30)))
        g = np.array([np.sum((y - p) * x) - 1e-2 * a, np.sum(y - p) - 1e-2 * b])
        w = p * (1.0 - p)
        h = np.array([[np.sum(w * x * x) + 1e-2, np.sum(w * x)],
                      [np.sum(w * x), np.sum(w) + 1e-2]])
        step = np.linalg.solve(h, g)
        scale = 1.0
        while scale > 1e-6:  # halve the step until the likelihood rises
            trial = loglik(a + scale * float(step[0]), b + scale * float(step[1]))
            if trial >= current:
                break
            scale /= 2
        else:
            break
        a, b, gain = a + scale * float(step[0]), b + scale * float(step[1]), trial - current
        current = trial
        if gain < 1e-10:
            break
    return a, b, current / max(1, x.size)


def current_call_probability(v: BluffView, cal: Calibration, seed: int,
                             particles: int = 256, recalibrated: bool = True,
                             last_call_only: bool = False) -> float:
    """The (calibrated) probability of ``v``'s current call, with a fixed seed (so a fit
    compares parameters on the same draws). ``support = faith = 0`` uses the exact odds
    instead of particles (``normal``'s belief)."""
    call = v.current_call
    assert call is not None
    hand = v.hand or ()
    exact = call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)
    if cal.support == 0.0 and cal.faith == 0.0:
        believed = exact
    else:
        read = replace(v, calls=v.calls[-1:]) if last_call_only else v
        believed = sample(read, random.Random(seed), cal.model(particles)).probabilities()
    p = recalibrate(believed, exact, cal) if recalibrated else believed
    return float(p[call.index])


def fit(records: list[tuple[BluffView, bool]], grid: list[tuple[float, float]],
        particles: int = 256, last_call_only: bool = False
        ) -> tuple[Calibration, dict[tuple[float, float], float]]:
    """The calibration of best likelihood over ``grid`` (support, faith pairs), each with
    its maximum-likelihood logistic recalibration, then a monotone map
    (:func:`isotonic_knots`); and every grid point's mean log-likelihood. ``records``:
    views with a current call, and whether it was true. ``particles`` and
    ``last_call_only`` must be those of the bot that will use the calibration: the noise
    of a smaller sample is part of what the map corrects."""
    y = np.array([t for _, t in records], dtype=np.float64)
    scores: dict[tuple[float, float], float] = {}
    best: tuple[float, Calibration] | None = None
    for support, faith in grid:
        raw = Calibration(support, faith)
        p = np.array([current_call_probability(v, raw, i, particles, recalibrated=False,
                                               last_call_only=last_call_only)
                      for i, (v, _) in enumerate(records)])
        hand_sure = np.array([_sure(v) for v, _ in records])
        x, t = _logit(p[~hand_sure]), y[~hand_sure]
        slope, intercept, ll = fit_logistic(x, t) if t.size else (1.0, 0.0, 0.0)
        if slope < 0.0:  # a belief must not grow as the odds fall: the constant fit
            slope, intercept, ll = fit_logistic(np.zeros_like(x), t)
            slope = 0.0
        scores[(support, faith)] = ll
        if best is None or ll > best[0]:
            best = (ll, Calibration(support, faith, slope, intercept))
    assert best is not None
    cal = best[1]
    p = np.array([current_call_probability(v, cal, i, particles,
                                           last_call_only=last_call_only)
                  for i, (v, _) in enumerate(records)])
    hand_sure = np.array([_sure(v) for v, _ in records])
    knots = isotonic_knots(p[~hand_sure], y[~hand_sure])
    return Calibration(cal.support, cal.faith, cal.slope, cal.intercept, knots), scores


def isotonic_knots(p: FloatArray, y: FloatArray, bins: int = 16
                   ) -> tuple[tuple[float, float], ...]:
    """A monotone map from predicted to observed frequency: the maximum-likelihood
    non-decreasing step function (pool adjacent violators) over ``bins`` quantile bins of
    ``p``, as knots at the bins' mean predictions (linear in between, flat beyond the
    end knots, as the step function is). The logistic map cannot bend; this fixes what is
    left (every bucket within 0.05 of its observed frequency). No (0, 0) and (1, 1) end
    knots: the map only ever sees uncertain calls (:func:`recalibrate` keeps the certain ones), and
    drawing the ends to 0 and 1 put held-out buckets at 0.18 and 0.83 on calls that were
    true 31% and 70% of the time."""
    if p.size < 2 * bins:
        return ()
    order = np.argsort(p)
    groups = np.array_split(order, bins)
    blocks = [[float(p[g].mean()), float(y[g].sum()), float(g.size)] for g in groups if g.size]
    merged: list[list[float]] = []
    for x, total, n in blocks:  # pool adjacent violators
        merged.append([x * n, total, n])
        while len(merged) > 1 and merged[-2][1] / merged[-2][2] > merged[-1][1] / merged[-1][2]:
            b = merged.pop()
            merged[-1] = [merged[-1][0] + b[0], merged[-1][1] + b[1], merged[-1][2] + b[2]]
    knots = [(xn / n, total / n) for xn, total, n in merged]
    return tuple((round(x, 4), round(f, 4)) for x, f in knots)


def _sure(v: BluffView) -> bool:
    """Whether the seat's own cards decide its current call (exact odds 0 or 1)."""
    call = v.current_call
    assert call is not None
    hand = v.hand or ()
    p = call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)[call.index]
    return bool(p <= 0.0 or p >= 1.0)


def reliability(p: FloatArray, y: FloatArray, buckets: int = 10
                ) -> list[tuple[float, float, int, float, float]]:
    """Per bucket of predicted probability: (low, high, n, mean predicted, observed)."""
    rows = []
    edges = np.linspace(0.0, 1.0, buckets + 1)
    which = np.clip(np.digitize(p, edges[1:-1]), 0, buckets - 1)
    for k in range(buckets):
        inside = which == k
        if inside.any():
            rows.append((float(edges[k]), float(edges[k + 1]), int(inside.sum()),
                         float(p[inside].mean()), float(y[inside].mean())))
    return rows


def brier(p: FloatArray, y: FloatArray) -> float:
    return float(np.mean((p - y) ** 2))
