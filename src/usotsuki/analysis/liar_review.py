"""The Liar Game's decisions, each judged from the acting seat's view.

The odds are :func:`usotsuki.odds_liar.truth_probability`, the project's one model of
"is this play truthful" (L9), on the acting seat's view: its hand, its own plays, the
cards shown in doubts whose place is certain. The record's cards say afterwards whether
each play was truthful, which only the summary's bluff rate and the doubts' luck use.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from usotsuki import liar
from usotsuki.analysis.bluff_review import NotAnalysable, fill
from usotsuki.analysis.common import luck, rounded
from usotsuki.analysis.search import ExpertLiarSearch, Search, same_move
from usotsuki.bots.liar.belief import truth_belief
from usotsuki.bots.liar.search import score
from usotsuki.core.record import parse_players
from usotsuki.liar.actions import CARD_RATE, Doubt, Give, Play
from usotsuki.odds_liar import truth_probability
from usotsuki.session import LiarSession


@dataclass(frozen=True, slots=True)
class Point:
    frame: int
    round: int  # the game of the match
    index: int
    seat: int
    view: liar.LiarView
    action: liar.Action
    true: bool | None  # a play: truthful (L9)
    won: bool | None  # a doubt: did the doubter win (the play was a lie)


@dataclass(frozen=True, slots=True)
class Walk:
    game: str
    players: int
    names: tuple[str, ...]
    finished: bool
    frames: int
    points: tuple[Point, ...]
    win: tuple[tuple[float, ...], ...]  # per frame: each seat's chance to win, guessed


def _win(state: liar.LiarState) -> tuple[float, ...]:
    """The expert's own guess of each seat's chance to win from the hand sizes (a
    soft-min; 1 or 0 once the game is over): :func:`usotsuki.bots.liar.search.score`."""
    return tuple(round(score(state, s), 4) for s in range(state.rules.players))


def walk(record: Any) -> Walk:
    """Every decision of a Liar Game record (every game of a match), finished or not.

    :raises NotAnalysable: when the record does not replay (its first fault).
    """
    outcome = liar.replay(record)
    if outcome.fault is not None:
        raise NotAnalysable(outcome.fault.message, outcome.fault)
    rules = liar.read_rules(record)
    players, names = parse_players(record["players"])
    games = record["games"]
    session = LiarSession.create(rules, liar.read_seed(record), len(games), names)
    points: list[Point] = []
    win: list[tuple[float, ...]] = []
    frame = 0
    for number, entry in enumerate(games):
        session, _ = session.deal({"hands": entry["hands"], "stock": entry["stock"]})
        assert session.match is not None
        win.append(_win(session.match.state))
        for index, text in enumerate(entry["actions"]):
            state = session.match.state
            seat = state.to_move
            assert seat is not None
            action = liar.parse_action(text)
            true = all(CARD_RATE[c] == action.rate for c in action.cards) \
                if isinstance(action, Play) else None
            won = None
            if isinstance(action, Doubt):
                current = state.field[-1]
                won = not all(CARD_RATE[c] == current.rate for c in current.cards)  # L9
            frame += 1
            points.append(Point(frame, number, index, seat, liar.view(state, seat), action,
                                true, won))
            session, _ = session.apply(action)
            assert session.match is not None
            win.append(_win(session.match.state))
        frame += 1
    return Walk("liar", players, names or tuple(f"#{s}" for s in range(players)),
                session.is_over, frame, tuple(points), tuple(win))


def judge(point: Point, search: Search[liar.LiarView, liar.Action],
          rng: random.Random) -> dict[str, Any]:
    """The decision's JSON (docs/analysis.md): odds, values, best move, mark."""
    v = point.view
    p_current = truth_probability(v)
    action = point.action
    # The exact odds take the played cards as a random part of the hand; people (and bots)
    # choose, and mostly play truthfully when they can. The luck of a doubt is judged on
    # the belief that models that (bots.liar.belief), so that a doubt that fails against
    # exact odds of 10% is not called unlucky when the player could play that rate.
    p_belief = truth_belief(v)
    out: dict[str, Any] = {
        "frame": point.frame, "round": point.round, "index": point.index, "seat": point.seat,
        "action": liar.format_action(action), "p_current": rounded(p_current),
        "p_belief": rounded(p_belief), "p_action": None, "p_belief_action": None,
        "true": point.true, "won": point.won,
        "options": [], "best": None, "value": None, "error": None, "lost": None,
        "lost_error": None, "accuracy": None, "mark": None, "losers": None,
        "p_win": None if point.won is None or p_belief is None else rounded(1 - p_belief),
        "luck": None,
    }
    if point.won is not None and p_belief is not None:
        out["luck"] = luck(1 - p_belief, point.won)
    if isinstance(action, Give):
        return out  # O7: the gift is the player's choice of cards, not judged here
    evaluation = search.evaluate(v, action, rng)
    if len(evaluation.options) <= 1:
        return out
    # the candidate standing for the move made (a play may name its cards in another order)
    taken = next(a for a, _ in evaluation.options if same_move(a, action))
    options = [(liar.format_action(a), e) for a, e in evaluation.options]
    return fill(out, "liar", options, liar.format_action(taken), None)


def win_series(w: Walk, decisions: list[dict[str, Any]]) -> list[list[float]]:
    """Per frame, each seat's chance to win: the expert's guess from the hand sizes,
    made by :func:`walk` (the decisions do not move it)."""
    return [list(chances) for chances in w.win]


def default_search(depth: int | None) -> ExpertLiarSearch:
    return ExpertLiarSearch() if depth is None else ExpertLiarSearch(playouts=depth)
