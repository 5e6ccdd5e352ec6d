"""The shipped puzzles and their mining: every best move legal, best on the engine (a
fresh, deeper search agrees), answers checked as the rules and the Liar Game's equal
plays say, and what a solver is shown holds only the seat's view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from usotsuki import liar
from usotsuki.analysis import REVIEWS, puzzle_book
from usotsuki.analysis.common import difference_error
from usotsuki.analysis.puzzles import (
    CATCHES,
    CLEAR_CUT,
    CONFIRM_DEPTH,
    MIN_MARGIN,
    SIGMAS,
    chance_true_from_cards,
    evaluate,
    mine,
    naive_move,
    position,
    self_play,
)
from usotsuki.liar.actions import Play

SHIPPED_AT_LEAST = 500
SHIPPED_CATCHES = 40


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_at_least_500_puzzles_ship_per_game(game: str) -> None:
    puzzles = puzzle_book.load(game)
    assert len(puzzles) >= SHIPPED_AT_LEAST
    assert len({p["id"] for p in puzzles}) == len(puzzles)


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_every_shipped_best_move_is_legal_and_clearly_best(game: str) -> None:
    for p in puzzle_book.load(game):
        verdict = puzzle_book.check(p, p["best"])  # raises BadAnswer when illegal
        assert verdict.solved and verdict.move == p["best"]
        values = {o["action"]: o["value"] for o in p["options"]}
        assert max(values, key=lambda a: values[a]) == p["best"]
        assert p["margin"] >= MIN_MARGIN and p["margin"] >= SIGMAS / 2 * p["margin_error"]
        assert p["question"] and p["rating"] > 0 and p["rd"] > 0


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_a_fresh_search_agrees_on_a_sample(game: str) -> None:
    """Best on the engine: the expert's search, on new random numbers, finds no candidate
    better than the puzzle's answer beyond its error bar."""
    sample = random.Random(f"sample:{game}").sample(list(puzzle_book.load(game)), 4)
    search = REVIEWS[game].default_search(CONFIRM_DEPTH[game])
    for p in sample:
        pos = position(p)
        ranked = evaluate(search, pos.view, _action(game, p["played"]),
                          random.Random(f"check:{p['id']}"))
        best = next(e for a, e in ranked if a == p["best"])
        for action, e in ranked:
            assert e.value - best.value <= difference_error(e, best), (p["id"], action)


def _action(game: str, text: str) -> Any:
    from usotsuki import bluff

    return bluff.parse_action(text) if game == "bluff" else liar.parse_action(text)


def test_mining_a_game_keeps_only_clear_and_not_obvious_moves() -> None:
    record = self_play("bluff", 1)  # three players: a short game
    puzzles = list(mine(record, 1))
    assert puzzles
    for p in puzzles:
        pos = position(p)
        assert pos.played == p["played"]
        assert p["margin"] >= MIN_MARGIN and p["margin"] >= SIGMAS / 2 * p["margin_error"]
        if p["best"] not in CATCHES:
            assert naive_move("bluff", pos.view, [o["action"] for o in p["options"]]) != p["best"]
        assert p["best"] not in p["others"]


def test_mining_for_catches_keeps_only_challenges_the_cards_leave_open() -> None:
    record = self_play("bluff", 4010)
    puzzles = list(mine(record, 4010, catch_only=True))
    assert puzzles
    for p in puzzles:
        assert p["best"] == "challenge" and "catch_the_bluff" in p["themes"]
        assert p["margin"] >= MIN_MARGIN and p["margin"] >= SIGMAS / 2 * p["margin_error"]
        assert (chance_true_from_cards(position(p).view) or 0.0) >= CLEAR_CUT


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_catch_the_bluff_ships_and_is_never_clear_cut_from_the_cards(game: str) -> None:
    """Both games ship "catch the bluff" puzzles (a challenge, a doubt is best), asked as
    such, and in none do the seat's own cards alone make the call (play) a likely lie."""
    catches = [p for p in puzzle_book.load(game) if p["best"] in CATCHES]
    assert len(catches) >= SHIPPED_CATCHES
    for p in catches:
        assert "catch_the_bluff" in p["themes"]
        assert p["question"] == ("raise_or_challenge" if game == "bluff" else "doubt_or_not")
        assert (chance_true_from_cards(position(p).view) or 0.0) >= CLEAR_CUT, p["id"]


def test_answers_are_checked_by_the_rules() -> None:
    p = puzzle_book.load("bluff")[0]
    with pytest.raises(puzzle_book.BadAnswer, match="rank"):
        puzzle_book.check(p, "pair Z")
    wrong = next(o["action"] for o in p["options"] if o["action"] != p["best"])
    verdict = puzzle_book.check(p, wrong)
    assert not verdict.solved and verdict.value is not None and verdict.value < verdict.best_value
    current = position(p).view.current_call
    if current is not None:
        with pytest.raises(puzzle_book.BadAnswer):
            puzzle_book.check(p, str(current))  # not higher than itself (B5)


def test_a_liar_answer_with_cards_of_the_same_rates_counts() -> None:
    for p in puzzle_book.load("liar"):
        best = liar.parse_action(p["best"])
        view = position(p).view
        if not isinstance(best, Play) or view.rules.binding:
            continue
        hand = view.hand or ()
        rates = [liar.rate_of(c) for c in best.cards]
        twins = [c for c in hand if c not in best.cards and liar.rate_of(c) == rates[0]]
        if not twins:
            continue
        other = (twins[0], *best.cards[1:])
        text = liar.format_action(Play(other, best.rate))
        assert puzzle_book.check(p, text).solved
        return
    pytest.skip("no shipped Liar puzzle whose answer has a twin card in hand")


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_what_a_solver_is_shown_is_the_seats_view(game: str) -> None:
    for p in puzzle_book.load(game)[:40]:
        shown = puzzle_book.shown(p)
        text = json.dumps(shown)
        assert "best" not in shown and "record" not in shown and "played" not in shown
        pos = position(p)
        assert shown["view"] == pos.view.to_json() and shown["view"]["seat"] == p["seat"]
        public = json.dumps({k: v for k, v in shown["view"].items() if k != "hand"})
        for seat, hand in enumerate(pos.state.hands):
            if seat == p["seat"]:
                continue
            for card in map(str, hand):  # another seat's card now: only where the seat
                if f'"{card}"' in text:  # knows of it (a past reveal, a doubt)
                    assert f'"{card}"' in public and card not in (shown["view"]["hand"] or [])
