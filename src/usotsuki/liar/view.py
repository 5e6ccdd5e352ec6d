"""What one seat may know of a Liar Game (STYLE: OpenSpiel observer, lila ``Pov``).

A view is the seat's information state: everything it knows and nothing else. Its own
hand and everything public: hand sizes, the stock's size, the field face down (who played
how many cards as which rate), the cards doubts turned face up and where such cards
certainly are now (:mod:`usotsuki.liar.tracking`), the order in force, binding and 8-cut,
classes and owed gives, whose turn and what they may do. And what only this seat saw: the
cards of its own plays on the field, and where the cards it played face down (or gave in
an O7 exchange) certainly are now (``own_places``: under the stock, or drawn whole into a
seat's hand). Never another seat's cards, the stock's order, the seed or the generator's
state. Two histories the seat cannot tell apart give equal views; the converse does not
hold (a flushed field's plays are gone from it), so a view is what the seat sees now and
a perfect-recall information state is the sequence of its views along the history
(:mod:`usotsuki.envs.openspiel`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from usotsuki.cards import Card
from usotsuki.liar.actions import CARD_RATE, RATE_NAMES
from usotsuki.liar.legal import (
    BeforeLastPlay,
    LegalSummary,
    before_last_play,
    eight_cut,
    legal_summary,
)
from usotsuki.liar.rules import LiarRules
from usotsuki.liar.state import DoubtResult, Exchange, LiarState
from usotsuki.liar.tracking import own_places, places


@dataclass(frozen=True, slots=True)
class FieldView:
    """A play on the field, face down: its player, card count and declared rate."""

    seat: int
    count: int
    rate: int
    cards: tuple[Card, ...] | None = None  # the viewing seat's own play: its cards


@dataclass(frozen=True, slots=True)
class LiarView:
    seat: int | None  # None: a spectator
    rules: LiarRules
    game: int
    hand: tuple[Card, ...] | None  # own cards by rate (normal order), then suit
    hand_sizes: tuple[int, ...]
    stock_size: int
    field: tuple[FieldView, ...]
    doubts: tuple[DoubtResult, ...]  # this game's doubts, cards face up
    # cards shown in doubts and certainly in one place now: "stock" or a seat (public)
    known_places: tuple[tuple[Card, int | str], ...]
    # shown cards the current play's player certainly held just before that play
    known_before_play: tuple[Card, ...]
    # private: cards this seat played face down or gave, and their certain place now
    own_places: tuple[tuple[Card, int | str], ...]
    reversed: bool
    revolution: bool
    jack_back: bool
    bound: bool
    eight_cut: bool  # O3 holds: the current play is an 8
    classes: tuple[int, ...]
    owed: tuple[Exchange, ...]
    to_move: int | None
    legal: LegalSummary | None
    turns: int
    standings: tuple[tuple[int, ...], ...] | None
    winner: int | None

    @property
    def order(self) -> str:
        return "reversed" if self.reversed else "normal"

    def before_last_play(self) -> BeforeLastPlay:
        """What the current play's player could declare just before it, from the field's
        public record (:func:`usotsuki.liar.legal.before_last_play`).

        :raises ValueError: on an empty field.
        """
        return before_last_play(self.rules, self.field_record(), self.revolution)

    def field_record(self) -> tuple[tuple[int, int], ...]:
        """The field as its public record: each play's ``(count, rate)``, oldest first (what
        :func:`usotsuki.liar.legal.field_orders` reads)."""
        return tuple((p.count, p.rate) for p in self.field)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready object with cards and rates in notation."""
        return {
            "seat": self.seat,
            "rules": self.rules.options() | {"players": self.rules.players},
            "game": self.game,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "field": [{"seat": p.seat, "count": p.count, "rate": RATE_NAMES[p.rate],
                       "cards": None if p.cards is None else [str(c) for c in p.cards]}
                      for p in self.field],
            "doubts": [{"doubter": d.doubter, "doubted": d.doubted, "rate": RATE_NAMES[d.rate],
                        "cards": [str(c) for c in d.cards], "truthful": d.truthful,
                        "drawer": d.drawer, "drawn": d.drawn} for d in self.doubts],
            "known_places": [{"card": str(c), "place": place}
                             for c, place in self.known_places],
            "known_before_play": [str(c) for c in self.known_before_play],
            "own_places": [{"card": str(c), "place": place} for c, place in self.own_places],
            "order": self.order,
            "revolution": self.revolution,
            "jack_back": self.jack_back,
            "bound": self.bound,
            "eight_cut": self.eight_cut,
            "classes": list(self.classes),
            "owed": [{"giver": e.giver, "receiver": e.receiver, "count": e.size}
                     for e in self.owed],
            "to_move": self.to_move,
            "legal": None if self.legal is None else self.legal.to_json(),
            "turns": self.turns,
            "standings": None if self.standings is None else [list(p) for p in self.standings],
            "winner": self.winner,
        }


def view(state: LiarState, seat: int | None) -> LiarView:
    """What ``seat`` knows now; ``None`` gives the spectators' view (no hand at all)."""
    if seat is None:
        return _view(state, None, None)
    if not 0 <= seat < state.rules.players:
        raise ValueError(f"no seat {seat} among {state.rules.players} players")
    hand = tuple(sorted(state.hands[seat], key=lambda c: (CARD_RATE[c], c.suit)))
    return _view(state, seat, hand)


def _view(state: LiarState, seat: int | None, hand: tuple[Card, ...] | None) -> LiarView:
    return LiarView(
        seat=seat,
        rules=state.rules,
        game=state.game,
        hand=hand,
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        field=tuple(FieldView(p.seat, len(p.cards), p.rate, p.cards if p.seat == seat else None)
                    for p in state.field),
        doubts=state.doubts,
        known_places=places(state.known_stock, state.known_hands),
        known_before_play=tuple(sorted(state.known_before)),
        own_places=() if seat is None else own_places(state.known_stock, state.secret, seat),
        reversed=state.reversed,
        revolution=state.revolution,
        jack_back=state.jack_back,
        bound=state.bound,
        eight_cut=eight_cut(state),
        classes=state.classes,
        owed=state.owed,
        to_move=state.to_move,
        legal=legal_summary(state),
        turns=state.turns,
        standings=state.standings,
        winner=state.winner,
    )


def info_key(v: LiarView) -> str:
    """A canonical string of the view: two views are equal exactly when their keys are."""
    return json.dumps(v.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
