"""Randomness for live play, kept out of the rules cores (they take chance as data)."""

from __future__ import annotations

import random
import secrets


def live_rng() -> random.Random:
    """The generator for live games: the operating system's secure source, which no
    seed can reproduce (reproducible games pass their own seeded ``random.Random``)."""
    return secrets.SystemRandom()


def game_rng(seed: int | None) -> random.Random:
    """A seeded generator for a reproducible game, else the live one."""
    return random.Random(seed) if seed is not None else live_rng()
