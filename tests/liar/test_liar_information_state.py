"""The Liar view as an information state (issue 9): it holds everything the seat saw,
its own face-down cards and where they went included, and nothing it could not see."""

from __future__ import annotations

from liar_support import cards, run, start

from usotsuki.cards import DECK
from usotsuki.liar import LiarRules, info_key, new_game, next_game, view
from usotsuki.liar.state import LiarState

# Two deals that differ only by 9C and 8C swapped between seat 0 and seat 2: after seat 0
# plays the swapped card face down, seat 0's hand is 3S 5D in both histories.
DEAL_A = ("3S 5D 9C", "4H 6S TD", "7H 8C JS")
DEAL_B = ("3S 5D 8C", "4H 6S TD", "7H 9C JS")


def both(*actions: str) -> tuple[LiarState, LiarState]:
    a = run(start(*DEAL_A), f"play {'9C'} as 3", *actions)
    b = run(start(*DEAL_B), f"play {'8C'} as 3", *actions)
    assert a.hands[0] == b.hands[0]  # the seat's hand alone cannot tell them apart
    return a, b


def test_view_remembers_the_seats_own_face_down_cards() -> None:
    a, b = both()
    assert view(a, 0).field[0].cards == cards("9C")
    assert view(b, 0).field[0].cards == cards("8C")
    assert view(a, 0) != view(b, 0)
    assert info_key(view(a, 0)) != info_key(view(b, 0))


def test_views_do_not_differ_where_the_seat_cannot_tell() -> None:
    a, b = both()
    # seat 1 saw one card go down as 3 in both histories
    assert view(a, 1) == view(b, 1)
    assert info_key(view(a, 1)) == info_key(view(b, 1))
    assert view(a, 1).field[0].cards is None
    assert view(a, None) == view(b, None)


def test_the_seat_knows_its_cards_went_under_the_stock_at_a_flush() -> None:
    a, b = both("pass", "pass")  # L7: back to seat 0, the field is flushed (L8)
    assert a.field == () and b.field == ()
    assert view(a, 0).own_places == ((cards("9C")[0], "stock"),)
    assert view(b, 0).own_places == ((cards("8C")[0], "stock"),)
    assert info_key(view(a, 0)) != info_key(view(b, 0))
    assert view(a, 1) == view(b, 1)  # the others never saw which card it was
    assert view(a, 0).to_json()["own_places"] == [{"card": "9C", "place": "stock"}]


def test_the_seat_knows_who_drew_its_cards_whole() -> None:
    # deal_all: no stock, so the drawer of a doubt takes the whole flushed field back
    hands = ["3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
             "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C"]
    state = run(start(*hands, deal_all=True),
                "play 3S as 3", "play 4D as 4", "play 5S as 5", "doubt")
    # 5S as 5 was true: the doubter, seat 1, draws the three cards; seat 0 alone knows
    # that one of them, face down all along, was its 3S (5S was shown to all)
    assert view(state, 0).own_places == ((cards("3S")[0], 1),)
    assert view(state, 1).own_places == ()  # its own 4D came back to its own hand
    assert view(state, None).own_places == ()
    assert {str(c) for c, _ in view(state, 0).known_places} == {"5S"}
    state = run(state, "play 6S as 6", "play 3S as 7")  # seat 1 plays again
    assert view(state, 0).own_places == ()  # 3S may be on the field now: no certain place


def test_o7_givers_know_where_their_cards_went() -> None:
    rules = LiarRules(players=2, hand_size=1, classes=True)
    first = new_game(rules, [cards("3S"), cards("4S")],
                     [c for c in DECK if c not in cards("3S 4S")])
    over = run(first, "play 3S as 3", "accept")  # L10: seat 0 out first, seat 1 last
    assert over.standings == ((0,), (1,))
    step = next_game(over, [cards("5S"), cards("AS")],
                     [c for c in DECK if c not in cards("5S AS")])
    state = step.state  # O7: seat 1 gave its AS to seat 0 and knows it is there
    assert view(state, 1).own_places == ((cards("AS")[0], 0),)
    assert view(state, 0).own_places == ()
    state = run(state, "give AS")  # seat 0 gives that very card back
    assert view(state, 1).own_places == ()
    assert view(state, 0).own_places == ((cards("AS")[0], 1),)
