"""Finished records as step-by-step frames with every card face up, for the replay viewer.

The browser never re-derives a state: this module folds a Part 4 record through the
sessions (so every step is the rules cores' own) and writes each step as public JSON
plus what was hidden during play (all hands, the cards on the Liar Game's field).
Only finished games are replayed: a live game's hands stay secret (Part 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from usotsuki import bluff, liar
from usotsuki.bluff.record import replay_report as bluff_report
from usotsuki.cards import parse_card
from usotsuki.core.errors import MalformedRecord, UsotsukiError
from usotsuki.core.record import parse_players
from usotsuki.session import BluffSession, LiarSession

MAX_FRAMES = 20000  # a record longer than this is refused rather than served


class NotReplayable(ValueError):
    """The record does not replay to its end: ``message`` says why."""


def evidence(call_text: str, hands: Sequence[Sequence[str]]) -> list[str]:
    """B8: the cards among ``hands`` that bear on a Bluff call: those of its ranks (for
    a straight flush, its five cards). Shown highlighted when hands are revealed."""
    call = bluff.parse_action(call_text)
    if not isinstance(call, bluff.Call):
        raise UsotsukiError(f"{call_text!r} is not a call")
    return [str(c) for c in bluff.call_cards(call, [parse_card(c) for hand in hands
                                                    for c in hand])]


def frames(record: Any) -> dict[str, Any]:
    """``{"game", "names", "players", "rules", "frames": [...]}`` for a finished record.

    Raises :class:`NotReplayable` when the record is malformed, has an illegal action or
    has not finished."""
    if not isinstance(record, dict) or record.get("game") not in ("bluff", "liar"):
        raise NotReplayable('a record is a JSON object whose "game" is "bluff" or "liar"')
    report = (bluff_report if record["game"] == "bluff" else liar.replay_report)(record)
    if not report["ok"]:
        raise NotReplayable(report["error"]["message"])
    if not report["finished"]:
        raise NotReplayable("the game has not finished: only finished games are replayed")
    try:
        players, names = parse_players(record["players"])
        out = (_bluff_frames(record, players, names) if record["game"] == "bluff"
               else _liar_frames(record, names))
    except (UsotsukiError, MalformedRecord, KeyError, TypeError) as exc:
        raise NotReplayable(str(exc)) from None
    if len(out) > MAX_FRAMES:
        raise NotReplayable(f"the record has more than {MAX_FRAMES} steps")
    return {"game": record["game"], "players": players,
            "names": list(names) if names else [f"#{s}" for s in range(players)],
            "rules": record.get("rules") or {}, "frames": out}


def _bluff_frames(record: dict[str, Any], players: int,
                  names: tuple[str, ...] | None) -> list[dict[str, Any]]:
    session = BluffSession.create(bluff.read_rules(record), names)
    out: list[dict[str, Any]] = []
    for number, entry in enumerate(record["rounds"]):
        session, _ = session.deal({"hands": entry["hands"]})
        out.append(_bluff_frame(session, number, None, None))
        for text in entry["actions"]:
            actor = session.to_move
            session, _ = session.apply(session.parse_action(text))
            out.append(_bluff_frame(session, number, actor, text))
    return out


def _bluff_frame(session: BluffSession, number: int, actor: int | None,
                 action: str | None) -> dict[str, Any]:
    state = session.state
    view = bluff.view(state, None).to_json()
    frame: dict[str, Any] = {"kind": "deal" if action is None else "action", "round": number,
                             "actor": actor, "action": action, "view": view, "reveal": None}
    if state.hands is not None:
        frame["hands"] = [[str(c) for c in hand] for hand in state.hands]
    else:  # the round just ended with a challenge (B9): its hands, face up
        result = view["history"][-1]
        frame["hands"] = result["hands"]
        frame["reveal"] = {**{k: result[k] for k in ("caller", "challenger", "call",
                                                      "call_true", "loser", "eliminated")},
                           "evidence": evidence(result["call"], result["hands"])}
    return frame


def _liar_frames(record: dict[str, Any], names: tuple[str, ...] | None
                 ) -> list[dict[str, Any]]:
    rules = liar.read_rules(record)
    games = record["games"]
    session = LiarSession.create(rules, liar.read_seed(record), len(games), names)
    out: list[dict[str, Any]] = []
    for number, entry in enumerate(games):
        session, events = session.deal({"hands": entry["hands"], "stock": entry["stock"]})
        out.append(_liar_frame(session, number, None, None, events))
        for text in entry["actions"]:
            actor = session.to_move
            session, events = session.apply(session.parse_action(text))
            out.append(_liar_frame(session, number, actor, text, events))
    return out


def _liar_frame(session: LiarSession, number: int, actor: int | None, action: str | None,
                events: Sequence[Any]) -> dict[str, Any]:
    assert session.match is not None
    state = session.match.state
    return {"kind": "deal" if action is None else "action", "round": number, "actor": actor,
            "action": action, "view": liar.view(state, None).to_json(),
            "hands": [[str(c) for c in hand] for hand in state.hands],
            "field_cards": [[str(c) for c in play.cards] for play in state.field],
            "events": [e.to_json() for e in events if e.audience is None]}
