"""Liar Game (RULES.md Part 2): random legal play, plain and with all house rules (O1-O7),
on the fast path (``push``) and the checked path (``apply``).

A decision is one action of the player to move (play, pass, doubt, accept, or an O7
``give``) chosen **uniformly among the concrete legal actions** and applied. Multi-card
plays (O1) make those too many to list, so the choice is drawn without listing them: from
``legal_summary(state)`` (the allowed counts and rates, Part 5's ``legal``) the number of
legal plays is ``sum(comb(hand, count)) * rates``; one index is drawn over plays and the
pass/doubt/accept actions together, and a play's cards are then a uniform subset of the
drawn size. The core's own ``random_action`` (each kind equally likely, what bots use) is
a different distribution, so it is not used here.

Deals (L3: ``usotsuki.liar.match.deal`` with the run's generator, and a flush seed from
it) are not decisions, but their time counts, as does ``new_game``'s check of the deal.
With all house rules, O7 (classes) only acts between the games of a match, so games are
played as matches of ``MATCH_GAMES`` games (``next_game`` and its exchange, with the
``give`` decisions).
"""

from __future__ import annotations

import random
import time
from typing import Any

from cases import Case, sample_states
from harness import Driver

PLAYERS = (4, 6)
MATCH_GAMES = 3
LISTING_SAMPLE = 2000
ALL_HOUSE_RULES = {"multi": True, "revolution": True, "eight_cut": True, "jack_back": True,
                   "six_up": True, "binding": True, "classes": True}


def available() -> str | None:
    """None when the Liar Game core has what this benchmark needs, else why not."""
    try:
        from usotsuki.liar.actions import ACCEPT, DOUBT, PASS, Give, Play  # noqa: F401
        from usotsuki.liar.legal import legal_summary  # noqa: F401
        from usotsuki.liar.match import deal  # noqa: F401
        from usotsuki.liar.rules import LiarRules  # noqa: F401
        from usotsuki.liar.state import apply, new_game, next_game, push  # noqa: F401
    except ImportError as exc:
        return f"the Liar Game core (usotsuki.liar) is missing or incomplete: {exc}"
    return None


def deal(rules: Any, rng: random.Random) -> tuple[Any, Any, int]:
    """L3 by the shell (``usotsuki.liar.match.deal``): hands, stock, and a flush seed."""
    from usotsuki.liar.match import deal as deal_hands_and_stock

    hands, stock = deal_hands_and_stock(rules, rng)
    return hands, stock, rng.getrandbits(64)


def make_uniform_action() -> Any:
    """A uniform draw among the concrete legal actions: ``usotsuki.liar.uniform_action``
    (in the core, so it runs compiled; tests/liar/test_liar_uniform_action.py
    checks it draws what this benchmark's own Python version drew)."""
    from usotsuki.liar.legal import uniform_action

    return uniform_action


def driver(players: int, options: dict[str, bool], checked: bool) -> Driver:
    from usotsuki.liar.rules import LiarRules
    from usotsuki.liar.state import apply, new_game, next_game, push

    rules = LiarRules(players=players, **options)
    uniform_action = make_uniform_action()
    match_games = MATCH_GAMES if rules.classes else 1

    def play(rng: random.Random, seconds: float) -> tuple[int, int, float]:
        decisions = games = 0
        start = time.perf_counter()
        while True:
            hands, stock, seed = deal(rules, rng)
            state = new_game(rules, hands, stock, seed)
            for game in range(match_games):
                if game:
                    hands, stock, _ = deal(rules, rng)
                    state = next_game(state, hands, stock).state
                if checked:
                    while state.to_move is not None:
                        state = apply(state, uniform_action(state, rng)).state
                        decisions += 1
                else:
                    while state.to_move is not None:
                        state = push(state, uniform_action(state, rng))
                        decisions += 1
                games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, games, elapsed

    return play


def lister(players: int, options: dict[str, bool], seed: int) -> Any:
    """``legal_summary`` per second: the Liar Game's listing of legal actions (Part 5
    ``legal``), since multi-card plays cannot be listed one by one."""
    from usotsuki.liar.legal import legal_summary
    from usotsuki.liar.rules import LiarRules
    from usotsuki.liar.state import new_game, push

    rules = LiarRules(players=players, **options)
    uniform_action = make_uniform_action()

    def play_one(rng: random.Random, out: list[Any]) -> None:
        hands, stock, flush_seed = deal(rules, rng)
        state = new_game(rules, hands, stock, flush_seed)
        while state.to_move is not None:
            out.append(state)
            state = push(state, uniform_action(state, rng))

    states = sample_states(play_one, LISTING_SAMPLE, seed)

    def list_all(rounds: int) -> int:
        summary = legal_summary
        for _ in range(rounds):
            for state in states:
                summary(state)
        return rounds * len(states)

    return list_all


def cases(seed: int) -> list[Case]:
    out = []
    for label, options in (("plain", {}), ("all", ALL_HOUSE_RULES)):
        game = "Liar Game" if label == "plain" else "Liar Game, O1-O7"
        note = "" if label == "plain" else f"matches of {MATCH_GAMES} (O7)"
        for n in PLAYERS:
            for path, checked in (("push", False), ("apply", True)):
                out.append(Case(
                    f"liar/{path}/{label}/{n}", game,
                    "push (fast)" if path == "push" else "apply (checked)", n,
                    lambda n=n, o=options, c=checked: driver(n, o, c),
                    lambda n=n, o=options: lister(n, o, seed),
                    listing_key=f"liar/{label}/{n}", params=dict(options), note=note,
                    detail="Liar Game: uniform over the concrete legal actions, drawn from "
                           "legal_summary; listings/s is legal_summary per second; deals "
                           "and new_game/next_game count in the time"))
    return out
