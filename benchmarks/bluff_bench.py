"""Bluff (RULES.md Part 1): random legal play on the fast path (``push``) and the checked
path (``apply``, ``start_round``).

A decision is one call or challenge, chosen uniformly among ``legal_actions(state)`` and
applied. Deals (B3, ``deal_hands`` with the same seeded generator) are not decisions, but
their time counts.
"""

from __future__ import annotations

import random
import time
from typing import Any

from cases import Case, sample_states
from harness import Driver

from usotsuki.bluff import BluffRules, apply, deal_unchecked, legal_actions, new_game, push
from usotsuki.bluff import start_round as start_round_checked
from usotsuki.bluff.deal import deal_hands

PLAYERS = (2, 3, 5, 8)
LISTING_SAMPLE = 2000  # decision states per player count


def fast_driver(players: int) -> Driver:
    """``deal_unchecked`` and ``push``: the trusted callers' path (bots, benchmarks)."""
    rules = BluffRules(players=players)

    def play(rng: random.Random, seconds: float) -> tuple[int, int, float]:
        choice = rng.choice
        decisions = games = 0
        start = time.perf_counter()
        while True:
            state = new_game(rules)
            while not state.is_over:
                if state.needs_deal:
                    state = deal_unchecked(state, deal_hands(state, rng))
                else:
                    state = push(state, choice(legal_actions(state)))
                    decisions += 1
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, games, elapsed

    return play


def checked_driver(players: int) -> Driver:
    """``start_round`` and ``apply``: the default path, every deal and action checked and
    its events built."""
    rules = BluffRules(players=players)

    def play(rng: random.Random, seconds: float) -> tuple[int, int, float]:
        choice = rng.choice
        decisions = games = 0
        start = time.perf_counter()
        while True:
            state = new_game(rules)
            while not state.is_over:
                if state.needs_deal:
                    state = start_round_checked(state, deal_hands(state, rng)).state
                else:
                    state = apply(state, choice(legal_actions(state))).state
                    decisions += 1
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, games, elapsed

    return play


def lister(players: int, seed: int) -> Any:
    rules = BluffRules(players=players)

    def play_one(rng: random.Random, out: list[Any]) -> None:
        state = new_game(rules)
        while not state.is_over:
            if state.needs_deal:
                state = deal_unchecked(state, deal_hands(state, rng))
            else:
                out.append(state)
                state = push(state, rng.choice(legal_actions(state)))

    states = sample_states(play_one, LISTING_SAMPLE, seed)

    def list_all(rounds: int) -> int:
        la = legal_actions
        for _ in range(rounds):
            for state in states:
                la(state)
        return rounds * len(states)

    return list_all


def cases(seed: int) -> list[Case]:
    out = []
    for n in PLAYERS:
        note = "B1 variant, to match OpenSpiel" if n == 2 else ""
        out.append(Case(f"bluff/push/{n}", "Bluff", "push (fast)", n,
                        lambda n=n: fast_driver(n), lambda n=n: lister(n, seed),
                        listing_key=f"bluff/{n}", params={"max_cards": 5}, note=note,
                        detail="Bluff push (fast): deal_unchecked + push, no checks, "
                               "no events"))
        out.append(Case(f"bluff/apply/{n}", "Bluff", "apply (checked)", n,
                        lambda n=n: checked_driver(n), lambda n=n: lister(n, seed),
                        listing_key=f"bluff/{n}", params={"max_cards": 5}, note=note,
                        detail="Bluff apply (checked, the default): start_round + apply, "
                               "every deal and action checked, events built"))
    return out
