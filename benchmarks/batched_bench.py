"""The batched engines (numpy arrays, per-game loops compiled with Numba): N games in
lockstep, random legal play, finished games restarted at once (``autoreset``).

- ``bluff/batched``: :class:`~usotsuki.research.batched.BatchedBluff`, actions alone.
- ``bluff/batched-obs``: the same, and every step what a learner reads: each seat to
  move's observation (``observe()``, the codec's tensor) and the legal-action mask.
- ``liar/batched-obs``: :class:`~usotsuki.research.batched_liar.BatchedLiar`, the Liar
  Game with observations and masks: plain rules, O3-O6, O1-O6 (multi-card plays, made
  of select ids, each select a decision; revolutions) and O1-O7 (matches of three games
  with the class system's exchanges, each give a decision).

A decision is one action of one game; a step of a batch of N makes N decisions. Deals
(B3, L3) and flushes are not decisions, but their time counts. Bluff rows: heads-up
(2 players, to match OpenSpiel's ``liars_dice``) and 5 players, both with the full deck
and ``max_cards`` 5, at batch sizes 1, 64 and 4096; Liar Game rows: 4 players, 9 cards
each (the defaults), at batch sizes 64 and 4096.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from cases import Case
from harness import Driver

from usotsuki.bluff import BluffRules
from usotsuki.liar import LiarRules
from usotsuki.research.batched import BatchedBluff
from usotsuki.research.batched_liar import BatchedLiar

BATCHES = (1, 64, 4096)
PLAYERS = (2, 5)
LIAR_BATCHES = (64, 4096)
O3_O6 = {"eight_cut": True, "jack_back": True, "six_up": True, "binding": True}
O1_O6 = {"multi": True, "revolution": True, **O3_O6}
LIAR_RULES = {"plain": {}, "o3-o6": O3_O6, "o1-o6": O1_O6, "o1-o7": {**O1_O6, "classes": True}}
MATCH_GAMES = 3  # with O7 (classes), the games of a match


def driver(make: Callable[[int], BatchedBluff | BatchedLiar], observe: bool) -> Driver:
    def play(rng: random.Random, seconds: float) -> tuple[int, int, float]:
        engine = make(rng.getrandbits(32))
        step, act = engine.step, engine.random_actions
        look, mask = engine.observe, engine.legal_mask
        start = time.perf_counter()
        while True:
            for _ in range(8):
                if observe:
                    look()
                    mask()
                step(act())
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return engine.decisions, engine.games_finished, elapsed

    return play


def _bluff(players: int, batch: int) -> Callable[[int], BatchedBluff]:
    return lambda seed: BatchedBluff(BluffRules(players=players), batch, seed=seed,
                                     autoreset=True)


def _liar(options: dict[str, bool], batch: int) -> Callable[[int], BatchedLiar]:
    games = MATCH_GAMES if options.get("classes") else 1
    return lambda seed: BatchedLiar(LiarRules(players=4, **options), batch, seed=seed,
                                    autoreset=True, games=games)


def cases(seed: int) -> list[Case]:
    del seed  # each timed run seeds its engine from the run's generator
    out = []
    for observe, kind in ((False, "batched"), (True, "batched-obs")):
        for players in PLAYERS:
            for batch in BATCHES:
                what = "with observations and masks" if observe else "actions alone"
                out.append(Case(
                    f"bluff/{kind}/{players}/b{batch}", "Bluff",
                    f"batched x{batch}" + (" +obs" if observe else ""), players,
                    lambda p=players, b=batch, o=observe: driver(_bluff(p, b), o),
                    params={"max_cards": 5, "batch": batch, "observe": observe},
                    note=f"batch {batch}" + (", heads-up like liars_dice" if players == 2
                                             else ""),
                    detail=f"Bluff batched (usotsuki.research.batched, numpy and Numba), {what}: N "
                           "games in lockstep, random legal actions, autoreset; decisions "
                           "summed over the batch"))
    for label, options in LIAR_RULES.items():
        for batch in LIAR_BATCHES:
            out.append(Case(
                f"liar/batched-obs/{label}/4/b{batch}", "Liar Game",
                f"batched x{batch} +obs", 4,
                lambda o=options, b=batch: driver(_liar(o, b), True),
                params={"batch": batch, "observe": True, **options,
                        **({"games": MATCH_GAMES} if options.get("classes") else {})},
                note=f"batch {batch}, {label}"
                     + (f" (matches of {MATCH_GAMES} games)" if options.get("classes") else ""),
                detail="Liar Game batched (usotsuki.research.batched_liar, numpy and Numba) with "
                       "observations and masks: N games in lockstep, uniformly random legal "
                       "ids, autoreset; decisions summed over the batch"))
    return out
