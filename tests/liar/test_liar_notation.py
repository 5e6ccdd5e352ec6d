"""Part 3 notation for Liar Game actions: tolerant input, canonical output."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from liar_support import cards

import usotsuki.liar.actions
import usotsuki.liar.notation
import usotsuki.liar.rules
from usotsuki.cards import DECK
from usotsuki.core.errors import InvalidNotation
from usotsuki.liar import ACCEPT, DOUBT, PASS, Action, Give, Play, format_action, parse_action
from usotsuki.liar.actions import RATE_COUNT, parse_rate


@pytest.mark.parametrize("module", [usotsuki.liar.notation, usotsuki.liar.actions,
                                    usotsuki.liar.rules])
def test_part3_doctests(module: object) -> None:
    failed, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failed == 0


def test_part3_play_as_as_a_is_the_ace_of_spades_declared_ace() -> None:
    assert parse_action("play as as a") == Play(cards("AS"), parse_rate("A"))
    assert parse_action("play AS as A") == parse_action("play as as a")
    assert format_action(parse_action("PLAY as AS a")) == "play AS as A"


@pytest.mark.parametrize("text, canonical", [
    ("PLAY 3s AS 3", "play 3S as 3"),
    ("play\u3000th\tas  10", "play TH as T"),
    ("  play 10♥ 2♠ as j ", "play TH 2S as J"),
    ("Pass", "pass"),
    ("DOUBT", "doubt"),
    ("accept\u3000", "accept"),
    ("give 2c", "give 2C"),
    ("GIVE ah 10d", "give AH TD"),
])
def test_part3_tolerant_input_canonical_output(text: str, canonical: str) -> None:
    assert format_action(parse_action(text)) == canonical
    assert format_action(parse_action(canonical)) == canonical


def test_part3_a_play_keeps_the_card_order_it_names() -> None:
    assert parse_action("play 9C 3S as 3").cards == cards("9C 3S")  # type: ignore[union-attr]


@pytest.mark.parametrize("text, token", [
    ("play 3S as Z", "'Z'"),
    ("play XX as 3", "'XX'"),
    ("fold", "'fold'"),
    ("pass now", "'now'"),
    ("play 3S 3S as 3", "'3S'"),
    ("play 7 H as 7", "'7'"),
])
def test_part3_errors_name_the_bad_token(text: str, token: str) -> None:
    with pytest.raises(InvalidNotation, match=token):
        parse_action(text)


@pytest.mark.parametrize("text", ["", "   ", "play as 3", "play 3S 3", "play 3S to 3",
                                  "give", "give 3S 4S 5S", "play 3S, 4S as 3", "3S"])
def test_part3_malformed_actions(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(text)


def test_part3_an_action_must_be_text() -> None:
    with pytest.raises(InvalidNotation):
        parse_action(7)  # type: ignore[arg-type]


card_lists = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)
actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(lambda cs, r: Play(tuple(cs), r), card_lists, st.integers(0, RATE_COUNT - 1)),
    st.builds(lambda cs: Give(tuple(cs)), st.lists(st.sampled_from(DECK), min_size=1,
                                                  max_size=2, unique=True)),
    st.sampled_from([PASS, DOUBT, ACCEPT]),
)


@settings(max_examples=200)
@given(actions, st.randoms(use_true_random=False))
def test_part3_round_trip_through_any_spelling(action: Action, rng) -> None:
    text = format_action(action)
    assert parse_action(text) == action
    spaces = ["  ", "\t", "\u3000", "\n "]
    shaken = rng.choice(spaces).join(
        "".join(ch.lower() if rng.random() < 0.5 else ch for ch in token)
        for token in text.split())
    assert parse_action(shaken) == action


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("playsdoubtcegivAS3TH10♠♥ \u3000,")), max_size=24))
def test_part3_any_text_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidNotation:
        return
    assert parse_action(format_action(action)) == action
