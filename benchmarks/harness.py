"""Timing for the benchmarks: fixed-duration runs of whole games, medians of several runs.

A *driver* is ``play(rng, seconds) -> (decisions, games, elapsed)``: it plays whole random
games with ``rng`` until at least ``seconds`` have passed (the clock is read between games,
so a run always ends on a finished game) and says how much it did and how long it took.
A *lister* is ``list_all(rounds) -> listings``: it lists the legal actions of a fixed
sample of states ``rounds`` times over.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Driver = Callable[[random.Random, float], tuple[int, int, float]]


@dataclass
class Figure:
    """One measured rate: its raw runs and their median."""

    runs: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.runs) if self.runs else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {"median": round(self.median, 1), "runs": [round(r, 1) for r in self.runs]}


@dataclass
class Settings:
    seconds: float = 1.0  # length of one timed run
    runs: int = 3  # timed runs per figure (the median is reported)
    warmup: float = 0.2  # untimed play before the timed runs
    seed: int = 20261101  # run i plays with random.Random(seed + i)
    listing_seconds: float = 0.4  # length of one timed run of legal-action listings


@dataclass
class PlayResult:
    decisions: Figure = field(default_factory=Figure)
    games: Figure = field(default_factory=Figure)
    raw: list[dict[str, float]] = field(default_factory=list)

    @property
    def decisions_per_game(self) -> float:
        total_d = sum(r["decisions"] for r in self.raw)
        total_g = sum(r["games"] for r in self.raw)
        return total_d / total_g if total_g else float("nan")


def measure_play(driver: Driver, settings: Settings) -> PlayResult:
    """Warm up, then time ``settings.runs`` runs of ``driver``, each with its own seed."""
    driver(random.Random(settings.seed - 1), settings.warmup)
    result = PlayResult()
    for i in range(settings.runs):
        rng = random.Random(settings.seed + i)
        gc.collect()
        decisions, games, elapsed = driver(rng, settings.seconds)
        result.decisions.runs.append(decisions / elapsed)
        result.games.runs.append(games / elapsed)
        result.raw.append({"seed": settings.seed + i, "decisions": decisions, "games": games,
                           "seconds": round(elapsed, 4)})
    return result


def measure_listings(list_all: Callable[[int], int], settings: Settings) -> Figure:
    """Time legal-action listings over a fixed sample of states: passes over the sample are
    repeated until ``settings.listing_seconds`` have passed, ``settings.runs`` times."""
    list_all(1)  # warm-up pass
    figure = Figure()
    for _ in range(settings.runs):
        gc.collect()
        listings = 0
        start = time.perf_counter()
        while True:
            listings += list_all(1)
            elapsed = time.perf_counter() - start
            if elapsed >= settings.listing_seconds:
                break
        figure.runs.append(listings / elapsed)
    return figure


def sample_chance(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """One outcome of a chance node, drawn with its probability."""
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]
