"""Hints in terminal Bluff (--hints, 'hint'): the odds, the belief, the expert's advice."""

from __future__ import annotations

import random

from rich.console import Console

from usotsuki.bluff import (
    BluffRules,
    BluffState,
    Call,
    legal_actions,
    new_game,
    parse_action,
    push,
    start_round,
)
from usotsuki.bluff import view as seat_view
from usotsuki.bluff.deal import deal_hands
from usotsuki.bots.bluff.hints import bluff_hint, calibrated_truth, calibration_fitted
from usotsuki.cards import parse_card
from usotsuki.cli.bluff_play import run_bluff
from usotsuki.odds import call_probability


def after_pair_9() -> tuple[BluffState, Call]:
    """A seeded 4-player round where the first caller said "pair 9"."""
    rng = random.Random(4)
    state = new_game(BluffRules(players=4))
    state = start_round(state, deal_hands(state, rng)).state
    call = parse_action("pair 9")
    assert isinstance(call, Call)
    return push(state, call), call


def test_hint_gives_exact_odds_belief_and_a_legal_suggestion() -> None:
    state, call = after_pair_9()
    seat = state.to_move
    assert seat is not None
    v, legal = seat_view(state, seat), legal_actions(state)
    hint = bluff_hint(v, legal)
    assert hint.odds == call_probability(call, v.hand, v.cards_in_play - len(v.hand))
    assert hint.belief is not None and 0.0 <= hint.belief <= 1.0
    assert hint.suggestion in legal
    assert bluff_hint(v, legal) == hint  # seeded from the view: the same hint every time


def test_first_caller_gets_a_suggestion_but_no_odds() -> None:
    rng = random.Random(5)
    state = new_game(BluffRules(players=3))
    state = start_round(state, deal_hands(state, rng)).state
    seat = state.to_move
    assert seat is not None
    hint = bluff_hint(seat_view(state, seat), legal_actions(state))
    assert hint.odds is None and hint.belief is None
    assert hint.suggestion in legal_actions(state)


def play(hints: bool, answers: list[str]) -> tuple[int, str]:
    console = Console(record=True, width=120, force_terminal=False)
    replies = iter(answers)
    code = run_bluff(players=3, seat=0, seed=7, save=None, bots="easy", hints=hints,
                     console=console, ask=lambda prompt: next(replies))
    return code, console.export_text()


def test_terminal_hints_do_not_change_the_game() -> None:
    answers = ["card 2", "challenge"] * 100
    code_with, with_hints = play(True, answers)
    code_without, without = play(False, answers)
    assert code_with == code_without == 0
    assert "the expert bot suggests" in with_hints and "hint:" not in without
    assert "from the cards alone (カードだけから計算すると)" in with_hints
    # the shipped calibration is fitted, so the calibrated chance shows beside the odds
    assert "given how people play (人の打ち方を踏まえると)" in with_hints
    strip = [line for line in with_hints.splitlines() if not line.startswith("hint:")]
    assert strip == without.splitlines()  # same deals, same bot moves, same standings


def test_the_shipped_calibration_is_fitted_and_its_number_is_shown() -> None:
    """Issue 11: the ``mix`` entry was fitted to self-play (it records ``fitted_on``), so
    the hint shows "given how people play" beside the card odds; a certain call stays
    certain."""
    assert calibration_fitted()
    state, call = after_pair_9()
    seat = state.to_move
    assert seat is not None
    v = seat_view(state, seat)
    hint = bluff_hint(v, legal_actions(state))
    truth = hint.truth()
    assert truth is not None and hint.calibrated is not None
    assert 0.0 < hint.calibrated < 1.0 and hint.calibrated == calibrated_truth(v, call)
    lines = truth.lines()
    assert len(lines) == 2
    assert "given how people play (人の打ち方を踏まえると)" in lines[0]
    assert "from the cards alone (カードだけから計算すると)" in lines[1]
    # the seat holds 3D and four cards are in play: "four 2" cannot be true (B8), and the
    # calibrated number never moves what the seat's own cards decide
    impossible = parse_action("four 2")
    assert isinstance(impossible, Call) and v.hand == (parse_card("3D"),)
    assert call_probability(impossible, v.hand, v.cards_in_play - len(v.hand)) == 0.0
    assert calibrated_truth(v, impossible) == 0.0
