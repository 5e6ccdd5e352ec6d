"""The shared card notation (RULES.md Part 3: Cards, Ranks)."""

from __future__ import annotations

import pytest

from usotsuki.cards import DECK, RANKS, SUITS, card, format_cards, parse_card, parse_rank
from usotsuki.core.errors import InvalidNotation


def test_part3_deck_is_52_distinct_cards_ranks_and_suits() -> None:
    assert len(DECK) == 52 == len(set(DECK))
    assert RANKS == "23456789TJQKA" and SUITS == "SHDC"
    assert {str(c) for c in DECK} == {r + s for r in RANKS for s in SUITS}


def test_part3_every_card_round_trips() -> None:
    for c in DECK:
        assert parse_card(str(c)) == c and str(parse_card(str(c))) == str(c)
        assert parse_card(str(c).lower()) == c


@pytest.mark.parametrize(("token", "canonical"), [
    ("AS", "AS"), ("as", "AS"), ("aS", "AS"), ("As", "AS"), ("TD", "TD"), ("td", "TD"),
    ("10D", "TD"), ("10d", "TD"), ("7H", "7H"), ("7h", "7H"),
    ("A♠", "AS"), ("a♠", "AS"), ("Q♥", "QH"), ("2♦", "2D"), ("K♣", "KC"), ("10♠", "TS"),
    ("t♣", "TC"), ("j♥", "JH"), (" 7h", "7H"), ("7H\n", "7H"), ("\u300010s\u3000", "TS"),
])
def test_part3_card_input_is_tolerant(token: str, canonical: str) -> None:
    assert str(parse_card(token)) == canonical


@pytest.mark.parametrize("token", [
    "", "A", "S", "7", "1S", "11S", "0S", "7X", "7HH", "H7", "SA", "7 H", "10", "1OS",
    "♠A", "7♤", "７H", "A\u3000S", "AS,", "7-H", "AS AS", "10 S",
])
def test_part3_not_a_card_is_invalid_notation_naming_it(token: str) -> None:
    with pytest.raises(InvalidNotation) as info:
        parse_card(token)
    assert repr(token) in str(info.value) or token in str(info.value)


@pytest.mark.parametrize("value", [None, 7, ["AS"], b"AS"])
def test_part3_non_text_card_is_invalid_notation(value: object) -> None:
    with pytest.raises(InvalidNotation):
        parse_card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("token", "index"), [("2", 0), ("9", 7), ("T", 8), ("t", 8),
                                              ("10", 8), ("J", 9), ("q", 10), ("A", 12)])
def test_part3_ranks_two_to_ace_and_ten(token: str, index: int) -> None:
    assert parse_rank(token) == index


@pytest.mark.parametrize("token", ["1", "11", "0", "B", "", "AA", "10T"])
def test_part3_bad_rank_is_invalid_notation(token: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_rank(token)


def test_part3_cards_print_canonically() -> None:
    assert format_cards([card(8, 0), card(12, 3), card(0, 1)]) == "TS AC 2H"
    assert repr(parse_card("10h")) == "TH"
