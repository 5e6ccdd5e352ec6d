"""The batched Bluff engine (:mod:`usotsuki.research.batched`, numpy): N games in
lockstep, random legal play, finished games restarted at once (``autoreset``).

A decision is one action of one game; a step of a batch of N makes N decisions. Deals
(B3, a fresh shuffle per round) are not decisions, but their time counts. Rows: heads-up
(2 players, to match OpenSpiel's ``liars_dice``) and 5 players, both with the full deck
and ``max_cards`` 5, at batch sizes 1, 64 and 4096.
"""

from __future__ import annotations

import random
import time

from cases import Case
from harness import Driver

from usotsuki.bluff import BluffRules
from usotsuki.research.batched import BatchedBluff

BATCHES = (1, 64, 4096)
PLAYERS = (2, 5)


def driver(players: int, batch: int) -> Driver:
    rules = BluffRules(players=players)

    def play(rng: random.Random, seconds: float) -> tuple[int, int, float]:
        engine = BatchedBluff(rules, batch, seed=rng.getrandbits(32), autoreset=True)
        step, act = engine.step, engine.random_actions
        start = time.perf_counter()
        while True:
            for _ in range(8):
                step(act())
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return engine.decisions, engine.games_finished, elapsed

    return play


def cases(seed: int) -> list[Case]:
    del seed  # each timed run seeds its engine from the run's generator
    out = []
    for players in PLAYERS:
        for batch in BATCHES:
            out.append(Case(
                f"bluff/batched/{players}/b{batch}", "Bluff", f"batched numpy x{batch}",
                players, lambda p=players, b=batch: driver(p, b),
                params={"max_cards": 5, "batch": batch},
                note=f"batch {batch}" + (", heads-up like liars_dice" if players == 2 else ""),
                detail="Bluff batched (usotsuki.research.batched, numpy): N games in "
                       "lockstep, random legal actions, autoreset; decisions summed over "
                       "the batch"))
    return out
