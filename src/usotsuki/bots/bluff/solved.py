"""Solved strategies of heads-up short-deck Bluff rounds, as a bot's policy.

``src/usotsuki/data/solved_bluff.npz`` holds CFR+ strategies (``usotsuki.research``;
``docs/solver.md`` has their exploitability) for rounds of two players with one or two
cards each on decks of 4 to 6 ranks (B13), two cards each only on 4 ranks (the larger such
rounds do not fit in memory). :func:`policy` answers for a seat's view when its round is
one of them and the stored strategy's own play reaches the view (the archive keeps
nothing else), and None otherwise. The archive is read on first use.

A call that cannot be true with the cards in play (it names more cards than the round
holds) is answered with a challenge: it wins for certain (the proof is in
``usotsuki.research.round``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from usotsuki.bluff.actions import CHALLENGE, Action, Call
from usotsuki.bluff.notation import parse_action
from usotsuki.bluff.state import requirements
from usotsuki.bluff.view import BluffView
from usotsuki.cards import RANKS

DATA = Path(__file__).resolve().parents[2] / "data" / "solved_bluff.npz"


class _Round:
    """One solved round: its calls and hands, and per seat where it acts and how."""

    def __init__(self, archive: Any, name: str) -> None:
        self.calls: list[Call] = []
        for text in archive[f"{name}/calls"].tolist():
            call = parse_action(text)
            assert isinstance(call, Call)
            self.calls.append(call)
        self.position = {c: k for k, c in enumerate(self.calls)}
        self.hands = [{h: i for i, h in enumerate(archive[f"{name}/hands{s}"].tolist())}
                      for s in (0, 1)]
        self.nodes = [archive[f"{name}/nodes{s}"].astype(np.int64) for s in (0, 1)]
        self.start = [archive[f"{name}/start{s}"] for s in (0, 1)]
        self.action = [archive[f"{name}/action{s}"] for s in (0, 1)]
        self.prob = [archive[f"{name}/prob{s}"] for s in (0, 1)]

    def strategy(self, seat: int, node: int, hand: int) -> dict[Action, float] | None:
        """The stored distribution at (node, hand) for ``seat``, None if none is stored
        (the seat's own play does not reach it; the layout: ``usotsuki.research.export``)."""
        nodes = self.nodes[seat]
        row = int(np.searchsorted(nodes, node))
        if row >= len(nodes) or nodes[row] != node:
            return None
        r = row * len(self.hands[seat]) + hand
        first, last = int(self.start[seat][r]), int(self.start[seat][r + 1])
        weights = self.prob[seat][first:last].astype(np.float64)
        total = float(weights.sum())
        if total <= 0.0:
            return None
        return {CHALLENGE if a == 0 else self.calls[a - 1]: float(w) / total
                for a, w in zip(self.action[seat][first:last].tolist(), weights.tolist(),
                                strict=True)}


@cache
def _rounds() -> dict[str, _Round]:
    if not DATA.exists():
        return {}
    with np.load(DATA) as archive:
        names = sorted({key.split("/")[0] for key in archive.files})
        return {name: _Round(archive, name) for name in names}


def covered() -> list[str]:
    """The solved rounds by name: ``r4-1v2`` is ranks 4, first caller 1 card, other 2."""
    return list(_rounds())


def _cards_named(call: Call) -> int:
    return sum(need for _, need in requirements(call))


def policy(v: BluffView) -> Mapping[Action, float] | None:
    """The solved strategy's action probabilities for the seat to move, or None when
    this situation is not covered (not a solved heads-up round, not this seat's turn, or
    a history the solved strategy never plays into)."""
    if not v.my_turn or v.hand is None or v.seat is None:
        return None
    if v.seats_in_play != 2:
        return None
    seats = [s for s, inside in enumerate(v.in_play) if inside]
    first = v.calls[0][0] if v.calls else v.seat  # B4: this round's first caller
    other = seats[1] if seats[0] == first else seats[0]
    name = f"r{v.ranks}-{v.hand_sizes[first]}v{v.hand_sizes[other]}"
    solved = _rounds().get(name)
    if solved is None:
        return None
    current = v.current_call
    if current is not None and _cards_named(current) > sum(v.hand_sizes):
        return {CHALLENGE: 1.0}  # it cannot be true: a challenge wins (B8, B9)
    node = 0
    for _, call in v.calls:
        k = solved.position.get(call)
        if k is None:
            return None
        node |= 1 << k
    me = 0 if v.seat == first else 1
    hand = solved.hands[me].get("".join(RANKS[r] for r in sorted(c.rank for c in v.hand)))
    return None if hand is None else solved.strategy(me, node, hand)


def sample(dist: Mapping[Action, float], rng: random.Random) -> Action:
    """One action drawn from ``dist`` with the bot's own generator."""
    actions = list(dist)
    return rng.choices(actions, weights=[dist[a] for a in actions])[0]

