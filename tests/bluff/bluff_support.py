"""Helpers for the Bluff tests, and an independent reading of RULES.md Part 1.

The ``oracle_*`` functions re-derive Bluff from the rule book's sentences alone, working on
notation text only (no import from ``usotsuki.bluff``), so the tests can compare the
rules core with a second, separately written reading of B2-B12 and Part 5.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

RANKS = "23456789TJQKA"  # B7: 2 lowest, A highest
SUITS = "SHDC"
DECK = [r + s for r in RANKS for s in SUITS]

# --- B6 / B7 / Part 3: every call, written independently of usotsuki.bluff.actions ----

TYPE_ORDER = ("card", "pair", "two-pair", "three", "full-house", "four", "straight-flush")


def _oracle_calls() -> list[str]:
    calls: list[str] = []
    calls += [f"card {r}" for r in RANKS]
    calls += [f"pair {r}" for r in RANKS]
    calls += [f"two-pair {a} {b}" for a, b in itertools.permutations(RANKS, 2)
              if RANKS.index(a) > RANKS.index(b)]
    calls += [f"three {r}" for r in RANKS]
    calls += [f"full-house {a} {b}" for a, b in itertools.permutations(RANKS, 2)]
    calls += [f"four {r}" for r in RANKS]
    calls += [f"straight-flush {r} {s}" for r in RANKS[RANKS.index("5"):] for s in SUITS]
    return calls


ORACLE_CALLS: list[str] = _oracle_calls()


def strength(call: str) -> tuple[int, ...]:
    """B7: a sortable strength of a canonical call; equal tuples are equally strong."""
    word, *args = call.split()
    if word == "straight-flush":
        return (TYPE_ORDER.index(word), RANKS.index(args[0]))  # the suit does not count
    # two-pair: higher pair then lower; full-house: the three then the pair (canonical order)
    return (TYPE_ORDER.index(word), *(RANKS.index(a) for a in args))


ORACLE_CALLS.sort(key=strength)  # weakest first; a stable sort keeps S H D C order
ALL_326 = list(ORACLE_CALLS)


def straight_cards(top: str, suit: str) -> list[str]:
    """B6: the five cards of a straight flush; ``5 4 3 2 A`` for top 5, no wrap."""
    i = RANKS.index(top)
    ranks = [RANKS[j] if j >= 0 else "A" for j in range(i, i - 5, -1)]
    return [r + suit for r in ranks]


def oracle_true(call: str, hands: Sequence[Sequence[str]]) -> bool:
    """B8: the cards of all players contain the claimed cards."""
    cards = [c for hand in hands for c in hand]
    counts = Counter(c[0] for c in cards)
    word, *args = call.split()
    if word == "straight-flush":
        return all(c in cards for c in straight_cards(args[0], args[1]))
    need = {"card": [1], "pair": [2], "two-pair": [2, 2], "three": [3],
            "full-house": [3, 2], "four": [4]}[word]
    return all(counts[r] >= k for r, k in zip(args, need, strict=True))


# --- A second reading of a whole game (B2-B5, B9-B12, Part 5) ---------------------------


class OracleGame:
    """Bluff from RULES.md, on canonical text. Only legal input is fed to it."""

    def __init__(self, players: int, max_cards: int = 5, dealer: int = 0) -> None:
        self.n = players
        self.max_cards = max_cards
        self.losses = [0] * players
        self.out: list[int] = []  # eliminated, first out first
        self.first = (dealer + 1) % players  # B4, round 1
        self.rounds: list[dict[str, Any]] = []
        self.hands: list[list[str]] | None = None
        self.calls: list[tuple[int, str]] = []
        self.to_move: int | None = self.first

    def in_game(self, seat: int) -> bool:
        return seat not in self.out

    def next_seat(self, seat: int) -> int:
        seat = (seat + 1) % self.n
        while not self.in_game(seat):
            seat = (seat + 1) % self.n
        return seat

    def hand_sizes(self) -> list[int]:
        """B3: ``losses + 1`` cards each; none for an eliminated seat."""
        return [self.losses[s] + 1 if self.in_game(s) else 0 for s in range(self.n)]

    @property
    def finished(self) -> bool:
        return self.to_move is None

    def deal(self, hands: list[list[str]]) -> None:
        assert self.hands is None and not self.finished
        assert [len(h) for h in hands] == self.hand_sizes()
        self.hands, self.calls = hands, []
        self.to_move = self.first

    def legal(self) -> list[str] | None:
        if self.finished:
            return None
        if not self.calls:
            return list(ALL_326)  # B5 first caller; Part 5 between rounds too
        last = strength(self.calls[-1][1])
        stronger = [c for c in ALL_326 if strength(c) > last]
        return [*stronger, "challenge"]

    def act(self, action: str) -> None:
        legal = self.legal()
        assert self.hands is not None and legal is not None and action in legal
        seat = self.to_move
        assert seat is not None
        if action != "challenge":
            self.calls.append((seat, action))
            self.to_move = self.next_seat(seat)
            return
        caller, call = self.calls[-1]
        true = oracle_true(call, self.hands)
        loser = seat if true else caller  # B9
        eliminated = self.losses[loser] + 1 == self.max_cards  # B2: held max_cards cards
        if eliminated:
            self.out.append(loser)
        else:
            self.losses[loser] += 1  # B11
        self.rounds.append({"caller": caller, "challenger": seat, "call": call,
                            "call_true": true, "loser": loser, "eliminated": eliminated})
        self.hands, self.calls = None, []
        if len(self.out) == self.n - 1:
            self.to_move = None  # B12
        else:
            self.first = self.next_seat(loser)  # B4 [resolved]: from the loser's seat
            self.to_move = self.first

    def standings(self) -> list[list[int]] | None:
        if not self.finished:
            return None
        winner = next(s for s in range(self.n) if self.in_game(s))
        return [[winner], *([s] for s in reversed(self.out))]  # B12

    def report(self) -> dict[str, Any]:
        """The Part 5 keys for a record that replays without a fault."""
        return {"game": "bluff", "ok": True, "error": None, "finished": self.finished,
                "standings": self.standings(), "to_move": self.to_move,
                "legal": self.legal(), "rounds": [dict(r) for r in self.rounds]}


# --- Building records --------------------------------------------------------------------


def record(players: int | list[str], rounds: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    """A Bluff record (Part 4); ``rules`` omitted when no option is given."""
    out: dict[str, Any] = {"game": "bluff", "players": players, "rounds": rounds}
    if rules:
        out["rules"] = rules
    return out


def rnd(hands: list[list[str]], *actions: Any) -> dict[str, Any]:
    """One round of a record."""
    return {"hands": hands, "actions": list(actions)}


def one_card_each(players: int, start: int = 0) -> list[list[str]]:
    """Single-card hands of distinct low spades/hearts (no two of a rank unless asked)."""
    return [[DECK[start + 4 * i]] for i in range(players)]


PART5_KEYS = ("game", "ok", "error", "finished", "standings", "to_move", "legal", "rounds")


def part5(report: dict[str, Any]) -> dict[str, Any]:
    """The Part 5 keys of a report, rounds cut to their Part 5 keys, without the message."""
    out = {k: report.get(k, "<missing>") for k in PART5_KEYS}
    if isinstance(out["error"], dict):
        out["error"] = {k: out["error"].get(k, "<missing>") for k in ("round", "index", "action")}
    if isinstance(out["rounds"], list):
        keys = ("caller", "challenger", "call", "call_true", "loser", "eliminated")
        out["rounds"] = [{k: r.get(k, "<missing>") for k in keys} for r in out["rounds"]]
    return out


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
