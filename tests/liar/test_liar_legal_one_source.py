"""Liar legality is decided once (``liar.legal.plays``): the Part 5 summary, the listing
and the check of one action agree, and each states O3 (the 8-cut) the same way."""

from __future__ import annotations

import random

import pytest
from liar_support import cards, random_start, run, start

from usotsuki.core.errors import IllegalAction
from usotsuki.liar import (
    LiarRules,
    Play,
    apply,
    check,
    illegal_reason,
    iter_legal_actions,
    legal_summary,
    parse_action,
    push,
    random_action,
)
from usotsuki.liar.actions import RATES, parse_rate
from usotsuki.liar.state import LiarState

THREE = ("3S 5D 9C", "4H 6S TD", "7H 8C JS")


def after_an_eight(eight_cut: bool) -> LiarState:
    return run(start(*THREE, eight_cut=eight_cut), "play 9C as 3", "play 6S as 8")


def test_o3_after_an_eight_no_play_in_the_summary() -> None:
    summary = legal_summary(after_an_eight(True))
    assert summary is not None and not summary.play and summary.pass_ and summary.doubt
    assert summary.to_json()["play"] is None


def test_o3_after_an_eight_no_play_is_listed() -> None:
    assert not any(isinstance(a, Play) for a in iter_legal_actions(after_an_eight(True)))


def test_o3_after_an_eight_every_play_is_refused_citing_o3() -> None:
    state = after_an_eight(True)
    for rate in RATES:
        play = Play(cards("7H"), rate)
        assert illegal_reason(state, play) == \
            "after a play declared 8 the others may only pass or doubt (O3)"
        with pytest.raises(IllegalAction) as caught:
            apply(state, play)
        assert caught.value.rule == "O3" and caught.value.action == play


def test_o3_random_actions_never_play_after_an_eight() -> None:
    state = after_an_eight(True)
    rng = random.Random(3)
    assert not any(isinstance(random_action(state, rng), Play) for _ in range(200))


def test_without_eight_cut_an_eight_is_played_over() -> None:
    state = after_an_eight(False)
    summary = legal_summary(state)
    assert summary is not None and summary.play and parse_rate("9") in summary.rates
    assert illegal_reason(state, parse_action("play 7H as 9")) is None
    assert any(isinstance(a, Play) for a in iter_legal_actions(state))


def test_errors_carry_rule_and_action() -> None:
    state = start(*THREE)
    action = parse_action("pass")
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert caught.value.rule == "L6" and caught.value.action == action
    found = check(state, parse_action("play 4H as 3"))
    assert found is not None and found.rule is None  # not in the hand: no numbered rule


@pytest.mark.parametrize("seed", range(12))
def test_summary_and_check_agree_on_every_play_shape(seed: int) -> None:
    """For random states under all house rules: a play of ``count`` of the hand's cards as
    ``rate`` passes the check exactly when the summary allows that count and rate."""
    rng = random.Random(seed)
    rules = LiarRules(players=3 + seed % 3, hand_size=7, multi=True, revolution=True,
                      eight_cut=True, jack_back=True, six_up=True, binding=True)
    state = random_start(rules, rng)
    for _ in range(60):
        if state.to_move is None:
            break
        summary = legal_summary(state)
        assert summary is not None
        hand = state.hands[state.to_move]
        if not state.owed:
            for count in range(1, len(hand) + 1):
                for rate in RATES:
                    allowed = count in summary.counts and rate in summary.rates
                    assert (illegal_reason(state, Play(hand[:count], rate)) is None) == allowed
        state = push(state, random_action(state, rng))
