"""Bluff records (RULES.md Part 4): read, replay, report (Part 5) and write.

:func:`replay` never raises on any JSON value: faults come back as data, located at
``{round, index}``, with the state the last legal step left (scalachess ``Replay``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from usotsuki.bluff.actions import Challenge
from usotsuki.bluff.notation import parse_action
from usotsuki.bluff.rules import BluffRules
from usotsuki.bluff.state import (
    BluffState,
    RoundResult,
    apply,
    legal_actions,
    new_game,
    start_round,
)
from usotsuki.cards import parse_card
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.record import (
    Fault,
    OnStep,
    RecordError,
    ReplayStep,
    action_as_written,
    check_int_option,
    entry_field,
    entry_list,
    json_text,
    parse_players,
    rules_object,
)

OPTION_DEFAULTS: dict[str, object] = {"max_cards": 5, "dealer": 0, "ranks": 13}


@dataclass(frozen=True, slots=True)
class BluffReplay:
    """The outcome of replaying a record: the last good state and the first fault."""

    state: BluffState | None  # None when the record failed before any deal
    names: tuple[str, ...] | None
    fault: Fault | None

    @property
    def ok(self) -> bool:
        return self.fault is None


def read_rules(record: Mapping[str, Any]) -> BluffRules:
    """``players`` and ``rules`` of a record as :class:`BluffRules` (Part 4, B2, B13).

    :raises RecordError: with ``round`` and ``index`` None.
    """
    if "players" not in record:
        raise RecordError('the record has no "players"')
    players, _ = parse_players(record["players"])
    options = rules_object(record, OPTION_DEFAULTS)
    max_cards = check_int_option("max_cards", options.get("max_cards", 5), minimum=1)
    dealer = check_int_option("dealer", options.get("dealer", 0), 0, players - 1)
    ranks = check_int_option("ranks", options.get("ranks", 13), 2, 13)
    try:
        return BluffRules(players=players, max_cards=max_cards, dealer=dealer, ranks=ranks)
    except UsotsukiError as exc:
        raise RecordError(str(exc)) from None


def _read_hands(entry: Any, number: int, players: int) -> list[list[Any]]:
    hands = entry_field(entry, "hands", number, "round")
    entry_field(entry, "actions", number, "round")  # Part 4: present, possibly empty
    if len(hands) != players:
        raise RecordError(f"round {number}: {len(hands)} hands for {players} seats",
                          round=number)
    cards = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise RecordError(f"round {number}: seat {seat}'s hand must be a list",
                              round=number)
        try:
            cards.append([parse_card(token) for token in hand])
        except UsotsukiError as exc:
            raise RecordError(f"round {number}, seat {seat}: {exc}", round=number) from None
    return cards


def replay(record: Any, on_step: OnStep[BluffState] | None = None) -> BluffReplay:
    """Replay a parsed Bluff record, stopping at its first fault (Part 5 order).

    ``on_step`` sees every step in order: each round's deal, then one per action.
    """
    names: tuple[str, ...] | None = None
    try:
        if not isinstance(record, dict):
            raise RecordError("a record is a JSON object")
        rules = read_rules(record)
        _, names = parse_players(record["players"])
        rounds = entry_list(record, "rounds")
    except RecordError as exc:
        return BluffReplay(None, names, exc.fault)
    state = new_game(rules)
    for number, entry in enumerate(rounds):
        state, fault = _replay_round(state, entry, number, number == len(rounds) - 1, on_step)
        if fault is not None:
            return BluffReplay(state, names, fault)
    return BluffReplay(state, names, None)


def _replay_round(state: BluffState, entry: Any, number: int, last: bool,
                  on_step: OnStep[BluffState] | None) -> tuple[BluffState, Fault | None]:
    """Deal and play one round; on a fault, the state Part 5 reports with it."""
    if state.is_over:
        return state, Fault(f"round {number} comes after the game ended", round=number)
    before = state
    try:
        step = start_round(state, _read_hands(entry, number, state.players))
    except RecordError as exc:
        return before, exc.fault
    except UsotsukiError as exc:
        return before, Fault(f"round {number}: {exc}", round=number)
    state = step.state
    if on_step is not None:
        on_step(ReplayStep(number, None, None, state, step.events))
    for index, written in enumerate(entry["actions"]):
        def fault(message: str) -> Fault:
            return Fault(message, number, index, action_as_written(written))  # noqa: B023

        if state.hands is None:  # the round already ended with its challenge
            why = "the game is over" if state.is_over else "the round ended with a challenge"
            return state, fault(f"{why}; nothing may follow it in round {number}")
        if not isinstance(written, str):
            return state, fault(f"an action is a string, not {json_text(written)}")
        try:
            step = apply(state, parse_action(written))
        except UsotsukiError as exc:
            return state, fault(str(exc))
        if on_step is not None:
            on_step(ReplayStep(number, state.to_move, written, step.state, step.events))
        state = step.state
    if state.hands is not None and not last:
        return before, Fault(f"round {number} ends without a challenge, but another round "
                             "follows (Part 4)", round=number)
    return state, None


def round_json(result: RoundResult) -> dict[str, Any]:
    """One Part 5 ``rounds`` entry, with the revealed hands as an extra key."""
    return {"caller": result.caller, "challenger": result.challenger,
            "call": str(result.call), "call_true": result.call_true, "loser": result.loser,
            "eliminated": result.eliminated,
            "hands": [[str(c) for c in hand] for hand in result.hands]}


def report(outcome: BluffReplay) -> dict[str, Any]:
    """The Part 5 object for a replayed Bluff record."""
    state = outcome.state
    finished = state is not None and state.is_over
    standings = state.standings if state is not None else None
    return {
        "game": "bluff",
        "ok": outcome.ok,
        "error": None if outcome.fault is None else outcome.fault.to_json(),
        "finished": finished,
        "standings": None if standings is None else [list(place) for place in standings],
        "to_move": None if state is None else state.to_move,
        "legal": None if state is None or finished else
        [str(a) for a in legal_actions(state)],
        "rounds": [] if state is None else [round_json(r) for r in state.results],
    }


def replay_report(record: Any) -> dict[str, Any]:
    """Replay a parsed Bluff record and return the Part 5 object."""
    return report(replay(record))


def write_record(state: BluffState, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The Part 4 record of a game so far, finished or not."""
    rounds: list[dict[str, Any]] = [
        {"hands": [[str(c) for c in hand] for hand in r.hands],
         "actions": [str(call) for _, call in r.calls] + [str(Challenge())]}
        for r in state.results]
    if state.hands is not None:
        rounds.append({"hands": [[str(c) for c in hand] for hand in state.hands],
                       "actions": [str(call) for _, call in state.calls]})
    return {"game": "bluff",
            "players": list(names) if names else state.players,
            "rules": state.rules.to_json(),
            "rounds": rounds}
