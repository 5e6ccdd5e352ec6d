"""Fitting the calibrated Liar Game belief (:mod:`usotsuki.bots.liar.calibrated`) to
self-play records, and measuring its calibration (offline: numpy, never at play).

- :func:`collect` plays seeded games of the given line-ups (levels, exploiters, and the
  lying variants of :func:`fit_bot`) and records, for every play
  made by a bot, what the next seat to move sees (:func:`~usotsuki.bots.liar.calibrated.
  features`), whether the play was truthful, the level that made it, and the plain odds
  (:func:`usotsuki.odds_liar.truth_probability`) for comparison;
- :func:`fit` is maximum likelihood for the logistic model (Newton's method, a small
  ridge so that a feature that never varies in a level's records stays at 0),
  :func:`fit_link` for its second stage and :func:`isotonic_knots` for its third;
- :func:`reliability` and :func:`brier` measure predictions on held-out records.

``scripts/fit_liar_calibration.py`` runs all three and writes ``liar_calibration.json``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from usotsuki.bots.base import make_bot
from usotsuki.bots.liar.calibrated import FEATURES, KNOTS, features, link_basis, probability
from usotsuki.bots.liar.common import lie_play
from usotsuki.liar import legal_summary, new_game, parse_rules_text, push, view
from usotsuki.liar.actions import CARD_RATE, Action, Play
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.match import deal
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import truth_probability


class MixedLiar:
    """A level that lies more than it needs to: where ``base`` would play truthfully it
    lies instead (at the lowest legal rate, with its least useful cards) with probability
    ``rate``; with ``leads_only``, only where it leads. Only a member of the self-play
    population the belief is fitted on: a belief fitted on honest players alone never
    learns what a record of caught lies says, nor that a leader may lie."""

    def __init__(self, base: Any, rate: float, name: str, leads_only: bool = False) -> None:
        self.base = base
        self.rate = rate
        self.name = name
        self.leads_only = leads_only

    def act(self, view: LiarView, legal: LegalSummary, rng: random.Random) -> Action:
        action: Action = self.base.act(view, legal, rng)
        lie_now = rng.random() < self.rate  # always one draw: replays stay exact
        if lie_now and isinstance(action, Play) and not (self.leads_only and view.field) \
                and all(CARD_RATE[c] == action.rate for c in action.cards):
            lie = lie_play(view, legal)
            if lie is not None:
                return lie
        return action


def fit_bot(name: str) -> Any:
    """A bot of the fitting population: ``lie-NN`` is ``hard`` lying in NN% of its
    truthful plays, ``lead-NN`` in NN% of its truthful leads (:class:`MixedLiar`); any
    other name comes from the bot registry (levels, ``expert-v1`` and ``x-`` exploiters)."""
    if name.startswith("lie-"):
        return MixedLiar(make_bot("liar", "hard"), int(name[4:]) / 100, name)
    if name.startswith("lead-"):
        return MixedLiar(make_bot("liar", "hard"), int(name[5:]) / 100, name, leads_only=True)
    return make_bot("liar", name)


@dataclass(frozen=True, slots=True)
class Record:
    """One play by a bot, as the next seat to move saw it."""

    game: int
    level: str
    x: tuple[float, ...] | None  # None: the seat knew the claim impossible (a certain lie)
    truthful: bool
    odds: float  # the plain odds of the same play


def game_of(lineups: Sequence[tuple[str, ...]], rules: Sequence[str], g: int
            ) -> tuple[list[str], str]:
    """Game ``g``'s bot names by seat and rules: line-up ``g % len(lineups)`` rotated by
    ``g`` places, rules ``g // len(lineups) % len(rules)``, so that every line-up plays
    under every rule set whatever the two counts (with ``g % len(rules)`` an even number of
    line-ups would each play under one rule set alone)."""
    lineup = lineups[g % len(lineups)]
    n = len(lineup)
    return [lineup[(s + g) % n] for s in range(n)], rules[g // len(lineups) % len(rules)]


def collect(lineups: Sequence[tuple[str, ...]], rules: Sequence[str], games: int,
            seed: int, turn_limit: int = 400, first: int = 0,
            tweak: Callable[[Any], None] | None = None) -> list[Record]:
    """Records from games ``first .. first + games - 1``; game ``g`` uses the line-up and
    rules of :func:`game_of` and generators derived from ``(seed, g)``. ``tweak`` may
    change each bot made (tests speed up the expert)."""
    out: list[Record] = []
    for g in range(first, first + games):
        names, text = game_of(lineups, rules, g)
        n = len(names)
        bots = [fit_bot(name) for name in names]
        if tweak is not None:
            for b in bots:
                tweak(b)
        rng = random.Random(f"liar-fit:{seed}:{g}")
        r = parse_rules_text(text, n, turn_limit=turn_limit)
        hands, stock = deal(r, rng)
        state = new_game(r, hands, stock, rng.getrandbits(32))
        while state.to_move is not None:
            seat = state.to_move
            legal = legal_summary(state)
            assert legal is not None
            action = bots[seat].act(view(state, seat), legal, rng)
            state = push(state, action)
            nxt = state.to_move
            if isinstance(action, Play) and nxt is not None and nxt != seat and state.field \
                    and state.field[-1].seat == seat:
                v = view(state, nxt)
                x = features(v)
                truthful = all(CARD_RATE[c] == action.rate for c in action.cards)
                out.append(Record(g, names[seat], None if x is None else tuple(x), truthful,
                                  truth_probability(v) or 0.0))
    return out


def fit(records: Sequence[Record], ridge: float = 1e-2, steps: int = 50,
        columns: Sequence[int] | None = None, width: int | None = None) -> list[float]:
    """Maximum-likelihood logistic coefficients (ridge on all but the bias) over the
    records with features; ``columns`` picks some features (the bias first)."""
    rows = [r for r in records if r.x is not None]
    if width is None:
        width = len(FEATURES) if columns is None else len(columns)
    if not rows:
        return [0.0] * width
    x = np.array([r.x for r in rows], dtype=float)
    if columns is not None:
        x = x[:, list(columns)]
    y = np.array([r.truthful for r in rows], dtype=float)
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x.T * (p * (1 - p))) @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return [float(v) for v in w]


def fit_link(records: Sequence[Record], coef: Sequence[float],
             columns: Sequence[int] | None = None, ridge: float = 1e-1) -> list[float]:
    """The second stage (:func:`~usotsuki.bots.liar.calibrated.link_basis`) by maximum
    likelihood, on the first stage's log-odds."""
    staged = []
    for r in records:
        if r.x is None:
            continue
        x = r.x if columns is None else [r.x[i] for i in columns]
        z = sum(a * b for a, b in zip(x, coef, strict=True))
        staged.append(Record(r.game, r.level, tuple(link_basis(z)), r.truthful, r.odds))
    return fit(staged, ridge=ridge, width=len(KNOTS) + 2)


def predict(record: Record, coef: Sequence[float], columns: Sequence[int] | None = None,
            link: Sequence[float] | None = None,
            knots: Sequence[tuple[float, float]] | None = None) -> float:
    if record.x is None:
        return 0.0
    x = record.x if columns is None else [record.x[i] for i in columns]
    return probability(x, coef, link, knots)


def isotonic_knots(pairs: Sequence[tuple[float, bool]], bins: int = 40
                   ) -> list[tuple[float, float]]:
    """The third stage: the maximum-likelihood non-decreasing map from predicted to
    observed frequency (pool adjacent violators) over ``bins`` bins of equal count of the
    predictions, as knots at the pooled blocks' mean predictions, with (0, 0) and (1, 1)
    at the ends (:func:`~usotsuki.bots.liar.calibrated.calibrate` interpolates)."""
    if len(pairs) < 2 * bins:
        return []
    p = np.array([q for q, _ in pairs], dtype=float)
    y = np.array([t for _, t in pairs], dtype=float)
    order = np.argsort(p, kind="stable")
    merged: list[list[float]] = []  # [sum of predictions, sum of outcomes, count]
    for group in np.array_split(order, bins):
        merged.append([float(p[group].sum()), float(y[group].sum()), float(group.size)])
        while len(merged) > 1 and merged[-2][1] / merged[-2][2] > merged[-1][1] / merged[-1][2]:
            last = merged.pop()
            merged[-1] = [a + b for a, b in zip(merged[-1], last, strict=True)]
    knots = [(round(sp / n, 5), round(sy / n, 5)) for sp, sy, n in merged]
    return [(0.0, 0.0), *knots, (1.0, 1.0)]


def save(records: Sequence[Record], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([[r.game, r.level, r.x, r.truthful, r.odds] for r in records]))


def load(path: Path) -> list[Record]:
    return [Record(g, level, None if x is None else tuple(x), truthful, odds)
            for g, level, x, truthful, odds in json.loads(path.read_text())]


def brier(pairs: Sequence[tuple[float, bool]]) -> float:
    """The mean squared error of the probabilities against what happened."""
    return sum((p - float(t)) ** 2 for p, t in pairs) / max(1, len(pairs))


def reliability(pairs: Sequence[tuple[float, bool]], buckets: int = 10
                ) -> list[dict[str, float]]:
    """Per probability bucket (tenths by default): how many, the mean prediction and the
    observed share of truthful plays."""
    rows = []
    for b in range(buckets):
        lo, hi = b / buckets, (b + 1) / buckets
        inside = [(p, t) for p, t in pairs if lo <= p < hi or (b == buckets - 1 and p == 1.0)]
        if inside:
            rows.append({"lo": lo, "hi": hi, "n": len(inside),
                         "predicted": sum(p for p, _ in inside) / len(inside),
                         "observed": sum(t for _, t in inside) / len(inside)})
    return rows
