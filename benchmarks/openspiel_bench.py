"""OpenSpiel's Liar's Dice relatives, driven from Python with the same random legal play.

- ``liars_dice``: C++ (pybind11); ``players`` must be 2 (the game refuses others);
  ``numdice`` (default 1) dice each. The default game is the baseline for the ratios; a
  5-dice game is shown beside it for context.
- ``python_liars_poker``: pure Python; it accepts a ``players`` parameter but its
  ``GameInfo`` fixes ``num_players()`` at 2, so every game is a 2-player game whatever is
  asked. Defaults: ``hand_length`` 10, ``num_digits`` 10.

A decision is one ``apply_action`` of a player's action chosen uniformly among
``state.legal_actions()``; chance nodes are sampled from ``chance_outcomes()`` with the
same seeded generator (not decisions, but their time counts).
"""

from __future__ import annotations

import random
import time
from typing import Any

from cases import Case, sample_states
from harness import Driver, sample_chance

LISTING_SAMPLE = 2000


def available() -> str | None:
    """None when OpenSpiel can be imported, else why not."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
        import pyspiel  # noqa: F401
    except ImportError as exc:
        return f"OpenSpiel is not installed ({exc}); `pip install -e '.[bench]'`"
    return None


def load(name: str, params: dict[str, Any]) -> Any:
    import open_spiel.python.games  # noqa: F401
    import pyspiel

    return pyspiel.load_game(name, params)


def driver(name: str, params: dict[str, Any]) -> Driver:
    game = load(name, params)

    def play(rng: random.Random, seconds: float) -> tuple[int, int, float]:
        choice = rng.choice
        decisions = games = 0
        start = time.perf_counter()
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(sample_chance(state.chance_outcomes(), rng))
                else:
                    state.apply_action(choice(state.legal_actions()))
                    decisions += 1
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return decisions, games, elapsed

    return play


def lister(name: str, params: dict[str, Any], seed: int) -> Any:
    game = load(name, params)

    def play_one(rng: random.Random, out: list[Any]) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state.chance_outcomes(), rng))
            else:
                out.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))

    states = sample_states(play_one, LISTING_SAMPLE, seed)

    def list_all(rounds: int) -> int:
        for _ in range(rounds):
            for state in states:
                state.legal_actions()
        return rounds * len(states)

    return list_all


def players_of(name: str, params: dict[str, Any]) -> int:
    return int(load(name, params).num_players())


def cases(seed: int) -> list[Case]:
    rows = [
        ("liars_dice", {"players": 2}, "C++", "liars_dice",
         "numdice 1 (default)",
         "OpenSpiel liars_dice (C++ via pybind11): numdice 1, the default, is the ratio "
         "baseline; load_game refuses players other than 2"),
        ("liars_dice", {"players": 2, "numdice": 5}, "C++", None,
         "numdice 5, context only",
         "OpenSpiel liars_dice numdice 5: classic five dice each, shown for context only"),
        ("python_liars_poker", {"players": 2}, "Python", "liars_poker",
         "defaults",
         "OpenSpiel python_liars_poker (pure Python): hand_length 10, num_digits 10, the "
         "defaults; it accepts a players parameter but its GameInfo keeps num_players() "
         "at 2, so it is always a 2-player game"),
    ]
    out = []
    for name, params, path, baseline, note, detail in rows:
        suffix = "" if "numdice" not in params else f"/numdice{params['numdice']}"
        out.append(Case(f"openspiel/{name}{suffix}", name, f"OpenSpiel {path}",
                        players_of(name, params),
                        lambda name=name, params=params: driver(name, params),
                        lambda name=name, params=params: lister(name, params, seed),
                        params=params, note=note, detail=detail, baseline=baseline,
                        players_text="2 only"))
    return out
