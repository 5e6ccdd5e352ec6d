"""What one seat may know of a Bluff game (STYLE: views are all a UI or bot sees).

A seat sees its own cards, every seat's card count and losses, this round's calls, and
the hands revealed at past challenges. Never another seat's cards in the current round.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from usotsuki.bluff.actions import Call
from usotsuki.bluff.state import BluffState, Hands, Phase, RoundResult, next_active
from usotsuki.cards import Card


@dataclass(frozen=True, slots=True)
class BluffView:
    """One seat's knowledge (``seat`` None: a spectator, who sees no hand)."""

    seat: int | None
    players: int
    max_cards: int
    phase: Phase
    round: int
    dealer: int
    to_move: int | None
    hand: tuple[Card, ...] | None  # None for a spectator
    hand_sizes: tuple[int, ...]
    losses: tuple[int, ...]
    eliminated: tuple[int, ...]
    calls: tuple[tuple[int, Call], ...]
    history: tuple[RoundResult, ...]  # past rounds, hands revealed at their challenge
    standings: tuple[tuple[int, ...], ...] | None
    ranks: int = 13  # B13: the deck holds the four suits of the ``ranks`` highest ranks

    @property
    def deck_size(self) -> int:
        """B13: the cards in the deck (52 by default)."""
        return 4 * self.ranks

    @property
    def current_call(self) -> Call | None:
        return self.calls[-1][1] if self.calls else None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move and self.phase is Phase.CALL

    @property
    def cards_in_play(self) -> int:
        return sum(self.hand_sizes)

    @property
    def in_play(self) -> tuple[bool, ...]:
        """Which seats are still in the game: they hold cards, the eliminated none (B2)."""
        return tuple(n > 0 for n in self.hand_sizes)

    @property
    def seats_in_play(self) -> int:
        """How many seats are still in the game (B2)."""
        return sum(1 for n in self.hand_sizes if n)

    def next_seat(self, seat: int) -> int:
        """The seat that acts after ``seat``: the next one clockwise still in the game (B5)."""
        return next_active(self.in_play, seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "bluff", "seat": self.seat, "players": self.players,
            "max_cards": self.max_cards, "ranks": self.ranks, "phase": self.phase.value,
            "round": self.round,
            "dealer": self.dealer, "to_move": self.to_move,
            # a spectator has no hand at all (PROTOCOL.md), as in the Liar Game
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "losses": list(self.losses), "eliminated": list(self.eliminated),
            "calls": [{"seat": s, "call": str(c)} for s, c in self.calls],
            "history": [_result_json(r) for r in self.history],
            "standings": None if self.standings is None else [list(p) for p in self.standings],
        }


def _hands_json(hands: Hands) -> list[list[str]]:
    return [[str(c) for c in hand] for hand in hands]


def _result_json(result: RoundResult) -> dict[str, Any]:
    return {"hands": _hands_json(result.hands),
            "calls": [{"seat": s, "call": str(c)} for s, c in result.calls],
            "caller": result.caller, "challenger": result.challenger,
            "call": str(result.call), "call_true": result.call_true, "loser": result.loser,
            "eliminated": result.eliminated}


def view(state: BluffState, seat: int | None) -> BluffView:
    """What ``seat`` may know; ``None`` gives the spectators' view (no hand at all)."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} at a table of {state.players}")
    hand: tuple[Card, ...] | None = None
    if seat is not None:
        hand = state.hands[seat] if state.hands is not None else ()
    return BluffView(
        seat=seat, players=state.players, max_cards=state.rules.max_cards,
        phase=state.phase, round=state.round, dealer=state.dealer, to_move=state.to_move,
        hand=hand,
        hand_sizes=tuple(state.hand_size(s) for s in range(state.players)),
        losses=state.losses, eliminated=state.eliminated, calls=state.calls,
        history=state.results, standings=state.standings, ranks=state.rules.ranks)


def info_key(v: BluffView) -> str:
    """A canonical string of everything the view holds (OpenSpiel's information state)."""
    return json.dumps(v.to_json(), sort_keys=True, separators=(",", ":"))
