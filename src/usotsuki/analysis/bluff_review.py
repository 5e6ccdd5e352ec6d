"""Bluff's decisions, each judged from the acting seat's view.

The walk replays the record through the core (B3-B12) and keeps, for every action, the
acting seat's view before it; the record's hands say afterwards whether each call was
true (B8), which only the summary's bluff rate and the luck of challenges use.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from usotsuki import bluff
from usotsuki.analysis.common import (
    Estimate,
    difference_error,
    estimate_json,
    luck,
    mark,
    move_accuracy,
    rounded,
)
from usotsuki.analysis.search import ExpertBluffSearch, Search
from usotsuki.analysis.win_chance import lives_win
from usotsuki.bluff.actions import Call, Challenge
from usotsuki.cards import parse_card
from usotsuki.core.record import Fault, parse_players
from usotsuki.odds import call_probability


class NotAnalysable(ValueError):
    """The record cannot be reviewed: the message says why; ``fault``, where the record
    stops replaying (as ``usotsuki replay`` locates it), when that is the reason."""

    def __init__(self, message: str, fault: Fault | None = None) -> None:
        super().__init__(message)
        self.fault = fault


@dataclass(frozen=True, slots=True)
class Point:
    """One decision: the acting seat's view before it, and what the record says."""

    frame: int  # the replay frame this action leads to (a deal, then one per action)
    round: int
    index: int
    seat: int
    view: bluff.BluffView
    action: bluff.Action
    true: bool | None  # a call: is it true with every hand (B8)
    won: bool | None  # a challenge: did the challenger win (the call was false, B9)


@dataclass(frozen=True, slots=True)
class Walk:
    game: str
    players: int
    names: tuple[str, ...]
    finished: bool
    frames: int
    points: tuple[Point, ...]
    lives: tuple[tuple[int, ...], ...]  # per frame: lives left per seat (0: out)
    max_cards: int


def walk(record: Any) -> Walk:
    """Every decision of a Bluff record, finished or not.

    :raises NotAnalysable: when the record does not replay (its first fault).
    """
    outcome = bluff.replay(record)
    if outcome.fault is not None:
        raise NotAnalysable(outcome.fault.message, outcome.fault)
    assert outcome.state is not None
    players, names = parse_players(record["players"])
    rules = bluff.read_rules(record)
    state = bluff.new_game(rules)
    points: list[Point] = []
    lives: list[tuple[int, ...]] = []
    frame = 0

    def lives_now(s: bluff.BluffState) -> tuple[int, ...]:
        return tuple(rules.max_cards - s.losses[i] if s.active[i] else 0
                     for i in range(players))

    for number, entry in enumerate(record["rounds"]):
        hands = [[parse_card(c) for c in h] for h in entry["hands"]]
        state = bluff.start_round(state, hands).state
        lives.append(lives_now(state))
        all_hands = state.hands
        assert all_hands is not None
        for index, text in enumerate(entry["actions"]):
            action = bluff.parse_action(text)
            seat = state.to_move
            assert seat is not None
            true = bluff.is_true(action, all_hands) if isinstance(action, Call) else None
            won = None
            if isinstance(action, Challenge):
                won = not bluff.is_true(bluff.ALL_CALLS[state.last_index], all_hands)
            frame += 1
            points.append(Point(frame, number, index, seat, bluff.view(state, seat), action,
                                true, won))
            state = bluff.apply(state, action).state
            lives.append(lives_now(state))
        frame += 1
    return Walk("bluff", players, names or tuple(f"#{s}" for s in range(players)),
                state.is_over, frame, tuple(points), tuple(lives), rules.max_cards)


def judge(point: Point, search: Search[bluff.BluffView, bluff.Action],
          rng: random.Random) -> dict[str, Any]:
    """The decision's JSON (docs/analysis.md): odds, values, best move, mark."""
    v = point.view
    hand = v.hand or ()
    unseen = v.cards_in_play - len(hand)
    current = v.current_call
    p_current = None if current is None else call_probability(current, hand, unseen, v.ranks)
    action = point.action
    p_action = call_probability(action, hand, unseen, v.ranks) if isinstance(action, Call) \
        else None
    evaluation = search.evaluate(v, action, rng)
    # Luck is judged on the search's beliefs, which read the calls as evidence: the odds
    # from one's own cards alone take every call for a random claim, and callers hold
    # what they call, so a challenger would look unlucky nearly every time.
    belief = evaluation.belief_current
    out: dict[str, Any] = {
        "frame": point.frame, "round": point.round, "index": point.index, "seat": point.seat,
        "action": bluff.format_action(action), "p_current": rounded(p_current),
        "p_belief": rounded(belief), "p_action": rounded(p_action),
        "p_belief_action": rounded(evaluation.belief_action), "true": point.true,
        "won": point.won, "options": [], "best": None, "value": None, "error": None,
        "lost": None, "lost_error": None, "accuracy": None, "mark": None, "losers": None,
        "p_win": None if point.won is None or belief is None else rounded(1 - belief),
        "luck": None,
    }
    if point.won is not None and belief is not None:
        out["luck"] = luck(1 - belief, point.won)
    if len(evaluation.options) <= 1:  # forced (B10: only a challenge is left)
        out["losers"] = _rounded_list(evaluation.losers)
        return out
    return fill(out, "bluff", [(bluff.format_action(a), e) for a, e in evaluation.options],
                bluff.format_action(action), evaluation.losers)


def fill(out: dict[str, Any], game: str, options: list[tuple[str, Estimate]], taken: str,
         losers: tuple[float, ...] | None) -> dict[str, Any]:
    """Options best first, the best move, the value lost by the move made, its accuracy
    and its mark."""
    ranked = sorted(options, key=lambda o: -o[1].value)
    best_text, best = ranked[0]
    mine = next(e for a, e in options if a == taken)
    lost = max(0.0, best.value - mine.value)
    error = difference_error(mine, best) if best_text != taken else 0.0
    out.update(options=[estimate_json(a, e) for a, e in ranked], best=best_text,
               value=round(mine.value, 4), error=round(mine.error, 4), lost=round(lost, 4),
               lost_error=round(error, 4), accuracy=round(move_accuracy(lost), 1),
               mark=mark(game, lost, error),
               losers=_rounded_list(losers))
    return out


def _rounded_list(values: tuple[float, ...] | None) -> list[float] | None:
    return None if values is None else [round(x, 4) for x in values]


def default_search(depth: int | None) -> ExpertBluffSearch:
    return ExpertBluffSearch() if depth is None else ExpertBluffSearch(playouts=depth)


def win_series(w: Walk, decisions: list[dict[str, Any]]) -> list[list[float]]:
    """Per frame, each seat's chance to win: :func:`lives_win` at deals and after
    challenges; after a call, the round's loser as the caller's search sees it."""
    by_frame = {d["frame"]: d for d in decisions}
    series = []
    for frame, lives in enumerate(w.lives):
        d = by_frame.get(frame)
        losers = d.get("losers") if d is not None and d["action"] != "challenge" else None
        if not losers:
            series.append([round(x, 4) for x in lives_win(lives)])
            continue
        mixed = [0.0] * len(lives)
        for loser, p in enumerate(losers):
            if p <= 0:
                continue
            after = tuple(n - 1 if i == loser else n for i, n in enumerate(lives))
            for i, x in enumerate(lives_win(after)):
                mixed[i] += p * x
        series.append([round(x, 4) for x in mixed])
    return series
