"""Per-seat views: own cards and public facts only (STYLE: views, no leaks)."""

from __future__ import annotations

import json

import pytest
from liar_support import names, run, start

from usotsuki.cards import DECK, parse_cards
from usotsuki.liar import info_key, view
from usotsuki.liar.view import FieldView

THREE = ("3S 5D 9C", "4H 6S TD", "7H 8C JS")


def card_names_in(obj: object) -> set[str]:
    text = json.dumps(obj)
    return {str(c) for c in DECK if f'"{c}"' in text}


def test_view_holds_own_hand_sorted_and_public_facts() -> None:
    state = run(start(*THREE, eight_cut=True), "play 9C as 3", "play 6S as 8")
    seen = view(state, 0)
    assert names(seen.hand or ()) == ["3S", "5D"]
    assert seen.hand_sizes == (2, 2, 3) and seen.stock_size == 43
    # its own play with its cards (it saw them go down), the others' face down
    assert seen.field == (FieldView(0, 1, 0, parse_cards(["9C"])), FieldView(1, 1, 5))
    assert seen.eight_cut and seen.order == "normal" and seen.to_move == 2
    assert seen.legal is not None and not seen.legal.play and seen.legal.pass_


def test_view_never_shows_other_hands_or_the_stock() -> None:
    state = run(start(*THREE), "play 9C as 3", "pass")
    for seat in range(3):
        shown = card_names_in(view(state, seat).to_json())
        own_plays = {str(c) for p in state.field if p.seat == seat for c in p.cards}
        assert shown == {str(c) for c in state.hands[seat]} | own_plays
    assert card_names_in(view(state, None).to_json()) == set()


def test_view_shows_the_cards_a_doubt_turned_up_and_who_drew() -> None:
    state = run(start(*THREE), "play 9C as 3", "doubt")
    seen = view(state, 2).to_json()
    assert seen["doubts"] == [{"doubter": 1, "doubted": 0, "rate": "3", "cards": ["9C"],
                               "truthful": False, "drawer": 0, "drawn": 1}]


def test_public_view_has_no_hand() -> None:
    seen = view(start(*THREE), None)
    assert seen.hand is None and seen.seat is None and seen.to_json()["hand"] is None


def test_info_key_is_canonical() -> None:
    state = run(start(*THREE), "play 9C as 3")
    assert info_key(view(state, 1)) == info_key(view(state, 1))
    assert info_key(view(state, 1)) != info_key(view(state, 2))
    json.loads(info_key(view(state, 1)))
    assert "rng" not in info_key(view(state, 1)) and "seed" not in info_key(view(state, 1))


def test_view_of_a_seat_that_does_not_exist() -> None:
    with pytest.raises(ValueError):
        view(start(*THREE), 3)
