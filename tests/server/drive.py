"""A scripted client (tests and the load benchmarks): picks an action text from a ``state``
message, as a person would type it, to play whole games over the protocol.

It only reads what the server sent this seat (its view and legal actions), so it cannot
cheat, and given the same generator it picks the same action.
"""

from __future__ import annotations

import random
from typing import Any


def choose(state: dict[str, Any], rng: random.Random, challenge: float = 0.3) -> str:
    """An action text for the seat of this ``state`` message, whose turn it is."""
    legal = state["legal"]
    view = state["view"]
    if isinstance(legal, list):  # Bluff: canonical calls, and maybe "challenge"
        if "challenge" in legal and rng.random() < challenge:
            return "challenge"
        calls = [a for a in legal if a != "challenge"]
        # Mostly modest raises, so games are not all single calls of straight flushes.
        return rng.choice(calls[:8]) if calls else "challenge"
    return _liar(view, legal, rng, challenge)


def _liar(view: dict[str, Any], legal: dict[str, Any], rng: random.Random,
          doubt: float) -> str:
    hand: list[str] = view["hand"]
    if legal["give"]:
        count = next(o["count"] for o in view["owed"] if o["giver"] == view["seat"])
        return "give " + " ".join(rng.sample(hand, min(count, len(hand))))
    if legal["accept"]:  # L10: a hand was played out
        return "doubt" if legal["doubt"] and rng.random() < doubt else "accept"
    if legal["doubt"] and rng.random() < doubt:
        return "doubt"
    play = legal["play"]
    if play and (not legal["pass"] or rng.random() < 0.7):
        count = rng.choice(play["counts"])
        cards = rng.sample(hand, count)
        return f"play {' '.join(cards)} as {rng.choice(play['rates'])}"
    if legal["pass"]:
        return "pass"
    return "doubt"
