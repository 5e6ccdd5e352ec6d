"""A seat's view as the server sends it (``BluffView.to_json()`` / ``LiarView.to_json()``,
PROTOCOL.md ``state.view``) read back into the core's view, so that a policy trained on
these environments plays a server's seat through the same codecs.

Only what the JSON holds comes back: the server keeps the latest 20 entries of a view's
``history`` (Bluff) and ``doubts`` (Liar Game), which neither codec's observation reads.
"""

from __future__ import annotations

from typing import Any

from usotsuki.bluff import BluffView, Call, Phase, RoundResult
from usotsuki.bluff import parse_action as parse_bluff_action
from usotsuki.cards import Card, parse_card, parse_cards
from usotsuki.core.errors import InvalidNotation
from usotsuki.liar import DoubtResult, Exchange, LegalSummary, LiarRules, LiarView, parse_rate
from usotsuki.liar.view import FieldView

AnyView = BluffView | LiarView


def view_from_json(data: dict[str, Any]) -> AnyView:
    """The core's view of either game (a Bluff view says ``"game": "bluff"``).

    :raises InvalidNotation: for a card, call or rate that does not parse;
        :raises KeyError: for a missing field."""
    return bluff_view(data) if data.get("game") == "bluff" else liar_view(data)


def bluff_view(data: dict[str, Any]) -> BluffView:
    hand, standings = data["hand"], data["standings"]
    return BluffView(
        seat=data["seat"], players=data["players"], max_cards=data["max_cards"],
        phase=Phase(data["phase"]), round=data["round"], dealer=data["dealer"],
        to_move=data["to_move"], hand=None if hand is None else parse_cards(hand),
        hand_sizes=tuple(data["hand_sizes"]), losses=tuple(data["losses"]),
        eliminated=tuple(data["eliminated"]), calls=_calls(data["calls"]),
        history=tuple(_round(r) for r in data["history"]),
        standings=_standings(standings), ranks=data.get("ranks", 13))


def _call(text: str) -> Call:
    action = parse_bluff_action(text)
    if not isinstance(action, Call):
        raise InvalidNotation(f"{text!r} is not a call")
    return action


def _calls(calls: list[dict[str, Any]]) -> tuple[tuple[int, Call], ...]:
    return tuple((c["seat"], _call(c["call"])) for c in calls)


def _round(data: dict[str, Any]) -> RoundResult:
    return RoundResult(tuple(parse_cards(h) for h in data["hands"]), _calls(data["calls"]),
                       data["caller"], data["challenger"], _call(data["call"]),
                       data["call_true"], data["loser"], data["eliminated"])


def _standings(data: list[list[int]] | None) -> tuple[tuple[int, ...], ...] | None:
    return None if data is None else tuple(tuple(place) for place in data)


def liar_view(data: dict[str, Any]) -> LiarView:
    hand = data["hand"]
    return LiarView(
        seat=data["seat"], rules=LiarRules(**data["rules"]), game=data["game"],
        hand=None if hand is None else parse_cards(hand),
        hand_sizes=tuple(data["hand_sizes"]), stock_size=data["stock_size"],
        field=tuple(FieldView(p["seat"], p["count"], parse_rate(p["rate"]),
                              None if p["cards"] is None else parse_cards(p["cards"]))
                    for p in data["field"]),
        doubts=tuple(DoubtResult(d["doubter"], d["doubted"], parse_rate(d["rate"]),
                                 parse_cards(d["cards"]), d["truthful"], d["drawer"],
                                 d["drawn"]) for d in data["doubts"]),
        known_places=_places(data["known_places"]),
        known_before_play=parse_cards(data["known_before_play"]),
        own_places=_places(data["own_places"]),
        reversed=data["order"] == "reversed", revolution=data["revolution"],
        jack_back=data["jack_back"], bound=data["bound"], eight_cut=data["eight_cut"],
        classes=tuple(data["classes"]),
        owed=tuple(Exchange(e["giver"], e["receiver"], e["count"]) for e in data["owed"]),
        to_move=data["to_move"], legal=legal_summary(data["legal"]), turns=data["turns"],
        standings=_standings(data["standings"]), winner=data["winner"])


def _places(data: list[dict[str, Any]]) -> tuple[tuple[Card, int | str], ...]:
    return tuple((parse_card(p["card"]), p["place"]) for p in data)


def legal_summary(data: dict[str, Any] | None) -> LegalSummary | None:
    """The Liar Game's Part 5 ``legal`` (a view's, or a state message's) as the core's."""
    if data is None:
        return None
    play = data["play"] or {"counts": [], "rates": []}
    return LegalSummary(data["pass"], data["doubt"], data["accept"], data["give"],
                        tuple(play["counts"]), tuple(parse_rate(r) for r in play["rates"]))
