"""Liar Game records (RULES.md Part 4): replay, the Part 5 report, and writing.

:func:`replay` folds a record's actions over the core and returns the states reached and
the first fault as data (scalachess ``Replay``); :func:`replay_report` turns that into
the object ``usotsuki replay --json`` prints. Faults are found in Part 5's order: the
record as a whole (``game``, ``players``, ``rules``, ``seed``, ``games``), then game by
game its deal when reached, then its actions.

Readings chosen here:

- A game that is not over yet followed by another game is reported as soon as its own
  actions are replayed (``round`` = that game), before the next game is reached; so a
  second game without O7 after an unfinished first game reports the first game.
- When the fault is not an action, ``games`` lists only the games replayed completely
  (an unfinished game followed by another is not one of them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from usotsuki.cards import Card, format_cards, parse_card
from usotsuki.core.errors import IllegalAction, InvalidDeal, InvalidNotation, InvalidRules
from usotsuki.core.events import Event
from usotsuki.core.game import GAMES
from usotsuki.core.record import (
    Fault,
    OnStep,
    RecordError,
    ReplayStep,
    action_as_written,
    check_bool_option,
    check_int_option,
    check_record_object,
    entry_field,
    entry_list,
    is_int,
    json_text,
    parse_players,
    rules_object,
)
from usotsuki.liar.actions import RATE_NAMES
from usotsuki.liar.legal import legal_summary
from usotsuki.liar.match import LiarMatch, deal, new_seed
from usotsuki.liar.notation import format_action, parse_action
from usotsuki.liar.rules import OPTION_DEFAULTS, LiarRules
from usotsuki.liar.state import LiarState, Seed, apply, dealt_events, new_game, next_game

__all__ = ["LiarReplay", "deal", "game_report", "new_seed", "replay", "replay_report",
           "read_rules", "read_seed", "write_record"]

_INT_OPTIONS = ("hand_size",)


# -- reading -----------------------------------------------------------------------------


def read_rules(record: Mapping[str, Any]) -> LiarRules:
    """``players`` and ``rules`` of a record (Part 4), checked in that order.

    :raises RecordError: with ``round`` and ``index`` None.
    """
    players, _ = parse_players(record.get("players"))
    options: dict[str, Any] = {}
    for name, value in rules_object(record, OPTION_DEFAULTS).items():
        if name in _INT_OPTIONS:
            options[name] = check_int_option(name, value, minimum=1)
        elif name == "turn_limit":
            options[name] = None if value is None else check_int_option(name, value, minimum=1)
        else:
            options[name] = check_bool_option(name, value)
    try:
        return LiarRules(players=players, **options)
    except InvalidRules as exc:
        raise RecordError(str(exc)) from None


def read_seed(record: Mapping[str, Any]) -> Seed:
    """Part 4 ``seed``: an integer or a string, 0 when absent; anything else is an error."""
    if "seed" not in record:
        return 0
    seed = record["seed"]
    if is_int(seed) or isinstance(seed, str):
        return seed  # type: ignore[no-any-return]
    raise RecordError(f"seed must be an integer or a string, not {json_text(seed)[:40]}")


def _cards(values: Any, where: str, number: int) -> list[Card]:
    if not isinstance(values, list):
        raise RecordError(f"game {number}: {where} must be a list of cards", round=number)
    try:
        return [parse_card(v) for v in values]
    except InvalidNotation as exc:
        raise RecordError(f"game {number}: {where}: {exc}", round=number) from None


def _read_game(entry: Any, number: int, players: int
               ) -> tuple[list[list[Card]], list[Card], list[Any]]:
    hands = entry_field(entry, "hands", number, "game")
    stock = entry_field(entry, "stock", number, "game")
    actions = entry_field(entry, "actions", number, "game")
    if len(hands) != players:
        raise RecordError(f"game {number} has {len(hands)} hands for {players} players",
                          round=number)
    cards = [_cards(hand, f"hand {seat}", number) for seat, hand in enumerate(hands)]
    return cards, _cards(stock, "stock", number), actions


@dataclass(frozen=True, slots=True)
class LiarReplay:
    """A replayed record: the state each listed game reached (Part 5: after the last
    legal action for a fault at an action; only complete games for any other fault)."""

    rules: LiarRules | None
    games: tuple[LiarState, ...]
    fault: Fault | None

    @property
    def state(self) -> LiarState | None:
        return self.games[-1] if self.games else None


def replay(record: Any, on_state: Callable[[LiarState], None] | None = None,
           on_step: OnStep[LiarState] | None = None) -> LiarReplay:
    """Replay a parsed Liar Game record; faults come back as data, never raised.

    ``on_state`` sees every state in order: each game's start, then one per action;
    ``on_step`` sees the same steps with the seat that acted, the action as written and
    the events.
    """
    rules: LiarRules | None = None
    done: list[LiarState] = []
    try:
        game = check_record_object(record)
        if game != "liar":
            raise RecordError(f'this is a "{game}" record, not a Liar Game record')
        rules = read_rules(record)
        seed = read_seed(record)
        entries = entry_list(record, "games")
        if not entries:
            raise RecordError("a Liar Game record needs at least one game")
        state: LiarState | None = None
        events: tuple[Event, ...]
        for number, entry in enumerate(entries):
            if number > 0 and not rules.classes:
                raise RecordError(f"game {number}: without classes (O7) a record holds "
                                  "exactly one game", round=number)
            hands, stock, actions = _read_game(entry, number, rules.players)
            try:
                if state is None:
                    state = new_game(rules, hands, stock, seed)
                    events = dealt_events(state) if on_step is not None else ()
                else:
                    step = next_game(state, hands, stock)
                    state, events = step.state, step.events
            except InvalidDeal as exc:
                raise RecordError(f"game {number}: {exc}", round=number) from None
            if on_state is not None:
                on_state(state)
            if on_step is not None:
                on_step(ReplayStep(number, None, None, state, events))
            for index, text in enumerate(actions):
                actor = state.to_move
                try:
                    step = apply(state, parse_action(text))
                except (InvalidNotation, IllegalAction) as exc:
                    fault = Fault(str(exc), number, index, action_as_written(text))
                    return LiarReplay(rules, (*done, state), fault)
                state, events = step.state, step.events
                if on_state is not None:
                    on_state(state)
                if on_step is not None:
                    on_step(ReplayStep(number, actor, text, state, events))
            if number + 1 < len(entries) and not state.is_over:
                raise RecordError(f"game {number} is not over, yet game {number + 1} follows "
                                  "(every game but the last must end)", round=number)
            done.append(state)
    except RecordError as exc:
        return LiarReplay(rules, tuple(done), exc.fault)
    return LiarReplay(rules, tuple(done), None)


# -- the Part 5 report -----------------------------------------------------------------


def _places(standings: tuple[tuple[int, ...], ...] | None) -> list[list[int]] | None:
    return None if standings is None else [list(place) for place in standings]


def game_report(state: LiarState) -> dict[str, Any]:
    """Part 5 ``games[i]``, with a few extra keys (``winner``, doubts' ``rate``/``cards``)."""
    return {
        "doubts": [{"doubter": d.doubter, "doubted": d.doubted, "truthful": d.truthful,
                    "drawer": d.drawer, "drawn": d.drawn, "rate": RATE_NAMES[d.rate],
                    "cards": format_cards(d.cards).split()} for d in state.doubts],
        "hand_sizes": [len(hand) for hand in state.hands],
        "stock_size": len(state.stock),
        "field_size": sum(len(play.cards) for play in state.field),
        "order": "reversed" if state.reversed else "normal",
        "standings": _places(state.standings),
        "winner": state.winner,
    }


def replay_report(record: Any) -> dict[str, Any]:
    """The object ``usotsuki replay FILE --json`` prints for a parsed Liar Game record
    (Part 5). Never raises: every fault is reported in ``error``."""
    game = record.get("game") if isinstance(record, dict) else None
    try:
        result = replay(record)
    except Exception as exc:  # a bug must still give Part 5's object, never a traceback
        result = LiarReplay(None, (), Fault(f"internal error while replaying: {exc!r}"))
    last = result.state
    finished = last is not None and last.is_over
    live = last if last is not None and not finished else None
    summary = legal_summary(live) if live is not None else None
    return {
        "game": game if isinstance(game, str) and game in GAMES else None,
        "ok": result.fault is None,
        "error": None if result.fault is None else result.fault.to_json(),
        "finished": finished,
        "standings": _places(last.standings) if finished and last is not None else None,
        "to_move": live.to_move if live is not None else None,
        "legal": summary.to_json() if summary is not None else None,
        "games": [game_report(state) for state in result.games],
    }


# -- writing -----------------------------------------------------------------------------


def write_record(match: LiarMatch) -> dict[str, Any]:
    """The Part 4 record of a live game or match: rules (every option written out),
    players, seed, and per game the hands as dealt, the stock and canonical actions."""
    return {
        "game": "liar",
        "players": list(match.names) if match.names is not None else match.rules.players,
        "rules": match.rules.options(),
        "seed": match.seed,
        "games": [{"hands": [[str(c) for c in hand] for hand in log.hands],
                   "stock": [str(c) for c in log.stock],
                   "actions": [format_action(a) for a in log.actions]}
                  for log in match.games],
    }
