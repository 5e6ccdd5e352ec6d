"""Puzzles mined from self-play, as lichess mines its own: positions where one move is
clearly best.

A self-play game (:func:`self_play`) is reviewed decision by decision with the review's
judge (:func:`usotsuki.analysis.judge_points`, the shipped expert's search, values on one
scale: the acting seat's chance to win the game). A decision becomes a puzzle when:

- at least two of its candidates are real choices (a challenge of a call the seat's own
  cards prove true, or a doubt of a play its own cards prove a lie, is no question);
- the best candidate beats the second by at least :data:`MIN_MARGIN` of the chance to win
  (choosing the second would be a mistake by the review's own marks), and by at least
  :data:`SIGMAS` standard errors of that difference ("well outside the error bars");
- it is not trivial. A challenge (Bluff) or a doubt (Liar Game) is a "catch the bluff"
  unless the seat's own cards alone make it clear-cut: the call (or play) is true with a
  chance under :data:`CLEAR_CUT` from those cards alone (none at all: the hand proves it
  false). Any other best move is trivial when a beginner's rule of thumb from the cards
  alone picks it (:func:`naive_move`: call what you hold most surely, play truthfully);
- every decision is first screened by a cheap search (:data:`SCREEN_DEPTH` playouts per
  candidate, half the margin, one standard error); a decision that passes is searched
  again, deeper (:data:`CONFIRM_DEPTH`), on other random numbers, and only that second
  search's values decide, by the full margins above. Selecting the largest of many noisy
  gaps favours noise; the second search is independent of that selection.

A puzzle keeps the record up to and including the move made in the game, so that the
position (the acting seat's view) replays through the review's own walk; what a player
is shown is that view only (:func:`position`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from usotsuki import bluff, liar
from usotsuki.analysis import DEFAULT_DEPTH, REVIEWS, plan
from usotsuki.analysis.common import Estimate, Z, difference_error, estimate_json
from usotsuki.analysis.search import Search
from usotsuki.bluff import BluffRules
from usotsuki.bluff.actions import Call
from usotsuki.bots import make_bot
from usotsuki.liar import LiarRules
from usotsuki.liar.actions import CARD_RATE, EIGHT, Give, Play
from usotsuki.odds import call_probability
from usotsuki.odds_liar import truth_probability
from usotsuki.session import BluffSession, LiarSession

SCHEMA = "usotsuki.puzzles/1"
MIN_MARGIN = 0.08
"""Chance to win by which the best move beats the second (the review's mistake mark)."""
SIGMAS = 4.0
"""Standard errors of the difference the margin must exceed (twice the review's bar)."""
SCREEN_DEPTH = {"bluff": 40, "liar": 32}
"""Playouts per candidate of the screening search."""
CONFIRM_DEPTH = {"bluff": 2 * DEFAULT_DEPTH["bluff"], "liar": 6 * DEFAULT_DEPTH["liar"]}
"""Playouts per candidate of the search that decides: twice the review's default for
Bluff; the Liar Game's playouts vary more (a soft-min of hand sizes at the horizon), so
more of them are needed to part two moves."""
CLEAR_CUT = 0.05
"""A challenge or a doubt is too obvious for a puzzle when the call (Bluff) or the play
(Liar Game) is true with a chance under this from the seat's own cards alone (one in
twenty: near certain). Where the cards alone leave a call a chance of 10% or more, a
raise or a pass is almost always within the margins of the challenge or the doubt, so
few positions clear them (docs/puzzles.md)."""
CATCHES = ("challenge", "doubt")
"""The moves that catch a bluff: Bluff's challenge, the Liar Game's doubt."""
INITIAL_RD = 350.0
"""A new puzzle's Glicko-2 rating deviation: its rating is a guess until people try it."""

# Self-play lineups: the expert against weaker bots, so that the positions vary and the
# moves made in them are sometimes wrong (as in people's games).
LINEUPS = {
    "bluff": (("expert", "hard", "normal", "easy", "normal"), ("expert", "hard", "normal"),
              ("expert", "expert", "hard", "normal")),
    "liar": (("expert", "hard", "normal", "easy"), ("expert", "hard", "normal")),
}
# The Liar Game's house rules vary across the games, so that the revolution, the 8-cut
# and the J-back come up.
LIAR_OPTIONS: tuple[dict[str, bool], ...] = (
    {}, {"multi": True, "revolution": True, "eight_cut": True},
    {"multi": True, "revolution": True, "jack_back": True, "six_up": True})


def self_play(game: str, seed: int) -> dict[str, Any]:
    """The record of one seeded self-play game between bots (:data:`LINEUPS`)."""
    lineups = LINEUPS[game]
    options = LIAR_OPTIONS[(seed // len(lineups)) % len(LIAR_OPTIONS)] if game == "liar" \
        else {}
    return bot_game(game, lineups[seed % len(lineups)], f"puzzles:{seed}", seed, options)


def bot_game(game: str, names: tuple[str, ...], tag: str, seed: int,
             liar_options: dict[str, bool] | None = None) -> dict[str, Any]:
    """The record of one game between the bots ``names``, its chance and each bot's
    choices drawn from generators seeded by ``tag``; a Liar Game's seed is ``seed`` and
    its house rules ``liar_options`` (with a turn limit of 400, L11)."""
    bots = [make_bot(game, n) for n in names]
    rngs = [random.Random(f"{tag}:{s}") for s in range(len(names))]
    chance = random.Random(f"{tag}:deal")
    labels = tuple(f"{n}{s}" for s, n in enumerate(names))
    session: Any
    if game == "bluff":
        session = BluffSession.create(BluffRules(players=len(names)), labels)
    else:
        session = LiarSession.create(LiarRules(players=len(names), turn_limit=400,
                                               **(liar_options or {})), seed, names=labels)
    while not session.is_over:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(chance))
            continue
        seat = session.to_move
        session, _ = session.apply(bots[seat].act(session.view(seat), session.legal(),
                                                  rngs[seat]))
    record: dict[str, Any] = session.record()
    return record


@dataclass(frozen=True, slots=True)
class Position:
    """A puzzle's position: the state (for the rules to check a move), the acting seat's
    view (all a solver is shown) and the move made in the game."""

    game: str
    seat: int
    state: Any  # bluff.BluffState | liar.LiarState
    view: Any  # bluff.BluffView | liar.LiarView
    played: str


def truncated(record: dict[str, Any], round_number: int, index: int) -> dict[str, Any]:
    """``record`` up to and including action ``index`` of round (or game) ``round_number``."""
    key = "rounds" if "rounds" in record else "games"
    entries = [dict(e) for e in record[key][:round_number + 1]]
    entries[-1]["actions"] = list(entries[-1]["actions"][:index + 1])
    out = {k: v for k, v in record.items() if k not in ("result", "results")}
    out[key] = entries
    return out


def position(puzzle: dict[str, Any]) -> Position:
    """The puzzle's position, replayed from its record through the review's walk (the
    view) and the core's replay of the record without the move made (the state)."""
    record = puzzle["record"]
    walk = plan(record)
    point = walk.points[-1]
    key = "rounds" if walk.game == "bluff" else "games"
    before = {**record, key: [*record[key][:-1], {**record[key][-1],
                                                  "actions": record[key][-1]["actions"][:-1]}]}
    core: Any = bluff if walk.game == "bluff" else liar
    state = core.replay(before).state
    assert state is not None and state.to_move == point.seat
    return Position(walk.game, point.seat, state, point.view, core.format_action(point.action))


def mine(record: dict[str, Any], seed: int, depth: int | None = None,
         catch_only: bool = False) -> Iterator[dict[str, Any]]:
    """The puzzles of self-play game ``seed``'s record (module docstring), each with its
    themes. ``depth``: the deciding search's playouts (default :data:`CONFIRM_DEPTH`).
    ``catch_only``: only "catch the bluff" puzzles, searching only the decisions where a
    challenge or a doubt could be one (a cheaper build of that theme)."""
    walk = plan(record)
    game = walk.game
    review = REVIEWS[game]
    search = review.default_search(SCREEN_DEPTH[game])
    deeper = review.default_search(depth or CONFIRM_DEPTH[game])
    for point in walk.points:
        if isinstance(point.action, Give):
            continue  # O7: the gift is the player's choice of cards, not judged
        if catch_only and not _catch_possible(point.view):
            continue
        rng = random.Random(f"{seed}/{point.round}/{point.index}")  # as the review's judge
        screened = evaluate(search, point.view, point.action, rng)
        first = _choice(game, point.view, screened, MIN_MARGIN / 2, 1.0)
        if first is None or _trivial(game, point.view, first[0], screened) \
                or (catch_only and first[0] not in CATCHES):
            continue
        rng = random.Random(f"{seed}/confirm/{point.round}/{point.index}")
        options = evaluate(deeper, point.view, point.action, rng)
        choice = _choice(game, point.view, options)
        if choice is None or choice[0] != first[0]:
            continue
        best, margin, error, others = choice
        if _trivial(game, point.view, best, options):
            continue
        fmt: Any = bluff.format_action if game == "bluff" else liar.format_action
        puzzle = {
            "id": puzzle_id(game, seed, point.round, point.index), "game": game,
            "seat": point.seat, "best": best, "played": fmt(point.action),
            "margin": round(margin, 4), "margin_error": round(error, 4),
            "options": [estimate_json(a, e) for a, e in options], "others": others,
            "question": question(game, [a for a, _ in options if a == best or a in others]),
            "themes": themes(game, point.view, best),
            "record": truncated(record, point.round, point.index),
        }
        puzzle["rating"] = initial_rating(puzzle)
        puzzle["rd"] = INITIAL_RD
        yield puzzle


def evaluate(search: Search[Any, Any], view: Any, taken: Any, rng: random.Random
             ) -> list[tuple[str, Estimate]]:
    """The search's candidates for the seat to move, best first, as notation."""
    evaluation = search.evaluate(view, taken, rng)
    fmt = bluff.format_action if isinstance(view, bluff.BluffView) else liar.format_action
    return sorted(((fmt(a), e) for a, e in evaluation.options), key=lambda o: -o[1].value)


def _choice(game: str, view: Any, ranked: list[tuple[str, Estimate]],
            min_margin: float = MIN_MARGIN, sigmas: float = SIGMAS
            ) -> tuple[str, float, float, list[str]] | None:
    """(best, margin over the second, the margin's error bar, the real alternatives) when
    the candidates (best first) make a puzzle by the margins of the module docstring."""
    options = [(a, e) for a, e in ranked if not _settled_bad(game, view, a)]
    if len(options) < 2 or options[0][0] != ranked[0][0] \
            or _settled_good(game, view, options[0][0]):
        return None
    (best, first), (_, second) = options[0], options[1]
    margin = first.value - second.value
    error = difference_error(first, second)  # paired on the playouts both shared
    if margin < min_margin or margin < sigmas / Z * error:
        return None
    return best, margin, error, [a for a, _ in options[1:]]


def _settled_bad(game: str, view: Any, action: str) -> bool:
    """A move the seat's own cards prove wrong: challenging a call they prove true (B9),
    doubting a play they prove truthful (L9)."""
    if game == "bluff":
        return action == "challenge" and _p_current(view) == 1.0
    return action == "doubt" and truth_probability(view) == 1.0


def _settled_good(game: str, view: Any, action: str) -> bool:
    """A best move the seat's own cards make obvious: challenging a call, or doubting a
    play, true with a chance under :data:`CLEAR_CUT` from those cards alone."""
    if action not in CATCHES:
        return False
    p_true = chance_true_from_cards(view)
    return p_true is not None and p_true < CLEAR_CUT


def _catch_possible(view: Any) -> bool:
    """Whether a challenge (a doubt) could be a "catch the bluff" puzzle here: there is a
    call (a play) to catch, neither settled nor clear-cut from the seat's cards alone."""
    p_true = chance_true_from_cards(view)
    return p_true is not None and CLEAR_CUT <= p_true < 1.0


def chance_true_from_cards(view: Any) -> float | None:
    """The chance that the call to challenge (Bluff) or the play to doubt (Liar Game) is
    true from the seat's own cards alone; None when there is none."""
    return _p_current(view) if isinstance(view, bluff.BluffView) else truth_probability(view)


def _trivial(game: str, view: Any, best: str, ranked: list[tuple[str, Estimate]]) -> bool:
    """A best move other than a catch that the rule of thumb (:func:`naive_move`) finds;
    a catch's triviality is :func:`_settled_good`'s, checked by :func:`_choice`."""
    return best not in CATCHES and naive_move(game, view, [a for a, _ in ranked]) == best


def _p_current(view: bluff.BluffView) -> float | None:
    current = view.current_call
    if current is None:
        return None
    hand = view.hand or ()
    return call_probability(current, hand, view.cards_in_play - len(hand), view.ranks)


def naive_move(game: str, view: Any, actions: list[str]) -> str:
    """A beginner's rule of thumb from the seat's own cards alone: Bluff, the call the hand
    makes likeliest (the lowest of equals), or the challenge when the current call is
    likelier false than that; Liar Game, doubt a play more likely a lie than not, else
    play truthfully as many cards as one can, else pass (or accept)."""
    if game == "bluff":
        hand = view.hand or ()
        unseen = view.cards_in_play - len(hand)
        raises = []
        for a in actions:
            if a != "challenge":
                call = bluff.parse_action(a)
                assert isinstance(call, Call)
                raises.append((call_probability(call, hand, unseen, view.ranks),
                               -call.index, a))
        best_raise = max(raises) if raises else None
        p_current = _p_current(view)
        if "challenge" in actions and p_current is not None and (
                best_raise is None or 1 - p_current >= best_raise[0]):
            return "challenge"
        return best_raise[2] if best_raise is not None else actions[0]
    p_truth = truth_probability(view)
    if "doubt" in actions and p_truth is not None and p_truth < 0.5:
        return "doubt"
    truthful = []
    for a in actions:
        action = liar.parse_action(a)
        if isinstance(action, Play) and all(CARD_RATE[c] == action.rate for c in action.cards):
            truthful.append((len(action.cards), a))
    if truthful:
        return max(truthful)[1]
    for quiet in ("pass", "accept"):
        if quiet in actions:
            return quiet
    return actions[0]


def question(game: str, ranked: list[str]) -> str:
    """The puzzle's question, from its two best candidates: ``raise_or_challenge`` or
    ``which_call`` (Bluff); ``doubt_or_not``, ``pass_or_play``, ``which_rate`` or
    ``which_cards`` (Liar Game)."""
    top = ranked[:2]
    if game == "bluff":
        return "raise_or_challenge" if "challenge" in top else "which_call"
    if "doubt" in top:
        return "doubt_or_not"
    if "pass" in top or "accept" in top:
        return "pass_or_play"
    rates = {a.rsplit(" ", 1)[-1] for a in top}
    return "which_rate" if len(rates) > 1 else "which_cards"


def themes(game: str, view: Any, best: str) -> list[str]:
    """The puzzle's themes (docs/puzzles.md lists them)."""
    out: list[str] = []
    if best in ("challenge", "doubt"):
        out.append("catch_the_bluff")
    if game == "bluff":
        v: bluff.BluffView = view
        assert v.seat is not None
        if best != "challenge":
            hand = v.hand or ()
            call = bluff.parse_action(best)
            assert isinstance(call, Call)
            p = call_probability(call, hand, v.cards_in_play - len(hand), v.ranks)
            out.append("the_safe_raise" if p >= 0.999 else "the_bold_raise")
        if v.max_cards - v.losses[v.seat] == 1:
            out.append("the_last_card")
        if v.seats_in_play == 2:
            out.append("heads_up")
        return out
    lv: liar.LiarView = view
    assert lv.seat is not None
    action = liar.parse_action(best)
    if isinstance(action, Play):
        truthful = all(CARD_RATE[c] == action.rate for c in action.cards)
        out.append("the_safe_play" if truthful else "the_bold_lie")
        if lv.rules.revolution and len(action.cards) >= 4:
            out.append("the_revolution")
        if lv.rules.eight_cut and action.rate == EIGHT:
            out.append("the_eight_cut")
        if len(action.cards) == lv.hand_sizes[lv.seat]:
            out.append("the_last_card")
    elif best in ("pass", "accept"):
        out.append("the_patient_pass")
    if not isinstance(action, Play) and lv.hand_sizes[lv.seat] <= 2:
        out.append("the_last_card")
    if lv.revolution and "the_revolution" not in out:
        out.append("the_revolution")  # the order is reversed: the question is read so
    return out


def initial_rating(puzzle: dict[str, Any]) -> float:
    """A new puzzle's rating before anyone tries it: 1500, harder (higher) when the bot
    that faced it in the game chose otherwise, and when the margin is small (a subtle
    puzzle); its large deviation (:data:`INITIAL_RD`) lets attempts move it quickly."""
    rating = 1500.0
    if puzzle["played"] != puzzle["best"]:
        rating += 150.0
    rating += 300.0 * max(0.0, 0.25 - float(puzzle["margin"]))
    return round(rating, 1)


def puzzle_id(game: str, seed: int, round_number: int, index: int) -> str:
    return f"{game[0]}{seed}-{round_number}-{index}"
