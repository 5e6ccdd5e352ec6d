"""RULES.md Part 3 for Bluff actions, and the golden counts of B6/B7.

Input is tolerant (case, any ``str.split()`` whitespace incl. U+3000, ``10`` for ``T``,
suit symbols, two-pair in either order); output is always canonical; anything else is an
``InvalidNotation`` that names the bad token.
"""

from __future__ import annotations

from collections import Counter

import pytest
from bluff_support import ALL_326, strength

from usotsuki.bluff import ALL_CALLS, CHALLENGE, Call, Challenge, format_action, parse_action
from usotsuki.bluff.actions import STRENGTH_LEVELS
from usotsuki.core.errors import InvalidNotation

# --- Counts as golden facts (B6, B7) -----------------------------------------------------


def test_b6_there_are_326_distinct_calls() -> None:
    assert len(ALL_CALLS) == 326
    assert len({str(c) for c in ALL_CALLS}) == 326
    assert len(set(ALL_CALLS)) == 326


def test_b7_there_are_296_strength_levels() -> None:
    assert STRENGTH_LEVELS == 296
    assert len({c.strength for c in ALL_CALLS}) == 296
    assert len({strength(c) for c in ALL_326}) == 296  # the independent reading agrees


def test_b7_levels_per_type_are_13_13_78_13_156_13_10() -> None:
    levels = Counter(str(c).split()[0] for c in {(c.kind, c.ranks): c for c in ALL_CALLS}
                     .values())
    assert [levels[k] for k in ("card", "pair", "two-pair", "three", "full-house", "four",
                                "straight-flush")] == [13, 13, 78, 13, 156, 13, 10]
    assert 13 + 13 + 78 + 13 + 156 + 13 + 10 == 296


def test_b6_calls_per_type_with_straight_flush_suits() -> None:
    calls = Counter(str(c).split()[0] for c in ALL_CALLS)
    assert calls == {"card": 13, "pair": 13, "two-pair": 78, "three": 13, "full-house": 156,
                     "four": 13, "straight-flush": 40}


def test_b7_all_calls_listed_weakest_first_as_the_rule_book_orders_them() -> None:
    assert [str(c) for c in ALL_CALLS] == ALL_326
    assert [c.strength for c in ALL_CALLS] == sorted(c.strength for c in ALL_CALLS)


# --- Canonical output --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["card 7", "pair J", "two-pair K 8", "three 4",
                                  "full-house 3 Q", "four 2", "straight-flush K S",
                                  "challenge"])
def test_part3_canonical_examples_round_trip(text: str) -> None:
    assert format_action(parse_action(text)) == text


def test_part3_every_call_round_trips() -> None:
    for call in ALL_CALLS:
        assert parse_action(format_action(call)) == call
        assert format_action(parse_action(str(call))) == str(call)


def test_part3_challenge_is_a_value() -> None:
    assert parse_action("challenge") == CHALLENGE == Challenge()
    assert isinstance(parse_action("pair 7"), Call)


# --- Tolerant input ----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "canonical"), [
    ("PAIR j", "pair J"), ("Pair J", "pair J"), ("pAiR j", "pair J"),
    ("TWO-PAIR k 8", "two-pair K 8"), ("Straight-Flush a s", "straight-flush A S"),
    ("CHALLENGE", "challenge"), ("Challenge", "challenge"),
    ("full-HOUSE t q", "full-house T Q"),
])
def test_part3_input_is_case_insensitive(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize("text", [
    "  pair  7 ", "pair\t7", "pair\n7", "\tpair \r\n 7\n", "pair\u30007", "\u3000pair\u30007\u3000",
    "pair\u00a07", "pair\u20037", "pair \u3000 \t 7",
])
def test_part3_any_run_of_whitespace_separates_tokens(text: str) -> None:
    assert str(parse_action(text)) == "pair 7"


def test_part3_ideographic_space_in_every_position() -> None:
    assert str(parse_action("two-pair\u3000A\u300010")) == "two-pair A T"
    assert str(parse_action("\u3000challenge\u3000")) == "challenge"


@pytest.mark.parametrize(("text", "canonical"), [
    ("card 10", "card T"), ("pair 10", "pair T"), ("two-pair 10 9", "two-pair T 9"),
    ("two-pair 9 10", "two-pair T 9"), ("three 10", "three T"),
    ("full-house 10 2", "full-house T 2"), ("full-house 2 10", "full-house 2 T"),
    ("four 10", "four T"), ("straight-flush 10 H", "straight-flush T H"),
])
def test_part3_ten_is_accepted_for_t(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(("symbol", "letter"), [("♠", "S"), ("♥", "H"), ("♦", "D"),
                                                ("♣", "C")])
def test_part3_straight_flush_suit_may_be_a_symbol(symbol: str, letter: str) -> None:
    assert str(parse_action(f"straight-flush K {symbol}")) == f"straight-flush K {letter}"


def test_part3_two_pair_in_either_order_is_written_higher_first() -> None:
    assert parse_action("two-pair 8 K") == parse_action("two-pair K 8")
    assert str(parse_action("two-pair 8 K")) == "two-pair K 8"
    assert str(parse_action("two-pair 2 A")) == "two-pair A 2"


def test_part3_full_house_order_is_three_then_pair() -> None:
    assert str(parse_action("full-house 3 Q")) == "full-house 3 Q"
    assert str(parse_action("full-house Q 3")) == "full-house Q 3"
    assert parse_action("full-house 3 Q") != parse_action("full-house Q 3")


# --- Refused input, with the bad token named ---------------------------------------------


@pytest.mark.parametrize(("text", "token"), [
    ("two pair K 8", "two"), ("full house 3 Q", "full"), ("straight flush K S", "straight"),
    ("twopair K 8", "twopair"), ("two_pair K 8", "two_pair"), ("fullhouse 3 Q", "fullhouse"),
    ("pear 7", "pear"), ("pair 1", "1"), ("pair 11", "11"), ("pair X", "X"),
    ("card 7H", "7H"), ("straight-flush K X", "X"), ("straight-flush K SS", "SS"),
    ("two-pair K, 8", "K,"), ("card ７", "７"), ("pair 0", "0"), ("card 01", "01"),
])
def test_part3_invalid_notation_names_the_bad_token(text: str, token: str) -> None:
    with pytest.raises(InvalidNotation) as info:
        parse_action(text)
    assert token in str(info.value)


@pytest.mark.parametrize("text", [
    "", " ", "\u3000", "card", "pair", "pair 7 7", "pair 7 8", "two-pair K", "two-pair K 8 2",
    "full-house 3", "straight-flush K", "straight-flush K S H", "challenge 7",
    "challenge challenge", "two-pair K,8", "pair,7", "7 pair", "four", "three 3 3",
    "straight-flush S K", "card -7", "pair 7,",
])
def test_part3_malformed_actions_are_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(text)


def test_part3_invalid_notation_is_a_value_error() -> None:
    assert issubclass(InvalidNotation, ValueError)
    with pytest.raises(ValueError):
        parse_action("nonsense")


@pytest.mark.parametrize("value", [None, 7, ["pair", "7"], b"pair 7"])
def test_part3_non_text_is_invalid_notation(value: object) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(value)  # type: ignore[arg-type]


def test_part3_doctests_of_the_notation_modules() -> None:
    import doctest

    import usotsuki.bluff.notation
    import usotsuki.cards

    for module in (usotsuki.bluff.notation, usotsuki.cards):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
