"""Public tracking of cards shown in doubts (liar/tracking.py): L8 puts the field under the
stock, draws take from the top, so a shown card's place is sometimes certain."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from liar_support import cards, run, start

from usotsuki.cards import DECK, Card
from usotsuki.liar import (
    LiarRules,
    LiarState,
    apply,
    new_game,
    parse_rules_text,
    push,
    random_action,
    view,
)
from usotsuki.liar.actions import DOUBT, PASS, Action, Give, Play
from usotsuki.liar.match import deal
from usotsuki.liar.state import L4_ORDER


def places(state: LiarState) -> dict[str, int | str]:
    return {str(c): place for c, place in view(state, None).known_places}


def test_l9_shown_cards_go_under_the_stock_and_stay_there_until_drawn() -> None:
    # 2 players, 3 cards each, 46 in the stock: the lie's drawer takes 2 from the top
    state = start("3S 9C KD", "9S 4H 4D", stock="2C 2D")
    state = run(state, "play 3S as 9", "play 4H as T", "doubt")  # 4H: a lie
    assert places(state) == {"4H": "stock"}  # under 46 cards; the drawer took 2C 2D
    assert state.hands[1][-2:] == cards("2C 2D")
    assert view(state, None).to_json()["known_places"] == [{"card": "4H", "place": "stock"}]
    for seat in (0, 1):  # public: every seat gets the same
        assert view(state, seat).known_places == view(state, None).known_places


def test_l9_drawer_who_takes_the_whole_block_certainly_holds_its_shown_cards() -> None:
    # deal_all: no stock, so the drawer of a doubt takes the whole flushed field back
    hands = ["3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
             "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C"]
    state = start(*hands, deal_all=True)
    state = run(state, "play 3S as 3", "play 9D as 5", "doubt")  # 9D lies: seat 1 draws 2
    assert places(state) == {"9D": 1}
    assert view(state, 0).known_places == view(state, 1).known_places
    state = run(state, "play 4S as 4")  # seat 0 (the doubter) leads
    state = run(state, "play 9D as 6")  # seat 1 plays its tracked card: no longer certain
    assert places(state) == {}
    assert view(state, None).known_before_play == cards("9D")
    state = run(state, "doubt")  # truthful? 9D as 6 is a lie; seat 1 draws all three
    assert places(state) == {"9D": 1}


def test_l9_doubted_player_keeps_the_tracked_cards_it_did_not_show() -> None:
    hands = ["3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
             "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C"]
    state = start(*hands, deal_all=True, multi=True)
    state = run(state, "play 3S 4S as 3", "play 9D TD as 5", "doubt")  # seat 1 takes all 4
    assert places(state) == {"9D": 1, "TD": 1}  # shown; 3S 4S were never face up
    state = run(state, "play 5S 6S as 6", "play 9D 3D as 7")  # 9D, TD: uncertain now
    assert places(state) == {}
    assert view(state, None).known_before_play == cards("9D TD")
    state = run(state, "doubt")  # 9D 3D shown, so TD never left seat 1's hand
    assert places(state) == {"3D": 1, "9D": 1, "TD": 1}


def lead_or_play(state: LiarState, rate: int) -> LiarState:
    """The player to move plays its first card (in hand order) as ``rate``."""
    seat = state.to_move
    assert seat is not None
    return apply(state, Play((state.hands[seat][0],), rate)).state


def test_l6_l9_a_draw_of_part_of_a_shuffled_block_loses_track() -> None:
    rules = LiarRules(players=3, hand_size=17)  # a 1-card stock
    hands, stock = deal(rules, random.Random(1))
    state = new_game(rules, hands, stock, 7)
    state = lead_or_play(state, 0)
    state = lead_or_play(state, 12)
    state = apply(state, DOUBT).state
    # under the 1-card stock went the 2 field cards, shuffled; the drawer took the old
    # top card and one of them: the shown card may be on either side
    assert len(state.stock) == 1
    assert places(state) == {}
    check_certain(state)


def test_l7_all_passed_flush_moves_tracked_blocks_up() -> None:
    """A shown card under the stock stays tracked as further flushes go under it, and
    the pass that draws exactly its 1-card block puts it in the passer's hand."""
    rules = LiarRules(players=2, hand_size=25)  # a 2-card stock
    hands, stock = deal(rules, random.Random(3))
    state = new_game(rules, hands, stock, 5)
    seat = state.to_move
    assert seat is not None
    shown = state.hands[seat][0]
    state = lead_or_play(state, 12)
    state = apply(state, DOUBT).state
    # the 1-card field under the 2-card stock; the drawer took the top card
    assert places(state) == {str(shown): "stock"}
    assert len(state.stock) == 2
    state = lead_or_play(state, 0)
    state = apply(state, PASS).state  # draws the old card above it; all passed: flush
    assert places(state) == {str(shown): "stock"}  # one more card went under it
    assert state.stock[0] == shown
    state = lead_or_play(state, 0)
    drawer = state.to_move
    assert drawer is not None
    state = apply(state, PASS).state  # draws the shown card: its whole 1-card block
    assert places(state) == {str(shown): drawer}
    assert shown in state.hands[drawer]
    check_certain(state)


def check_certain(state: LiarState) -> None:
    """Every tracked place is true in the full state."""
    for card, place in view(state, None).known_places:
        if place == "stock":
            assert card in state.stock
        else:
            assert isinstance(place, int) and card in state.hands[place]
    before = view(state, None).known_before_play
    if before:
        current = state.field[-1]
        assert set(before) <= set(state.hands[current.seat]) | set(current.cards)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["", "multi", "all"]), st.integers(2, 5),
       st.booleans())
def test_tracked_places_are_always_true(seed: int, rules_text: str, players: int,
                                        small_stock: bool) -> None:
    rules = parse_rules_text(rules_text, players)
    if small_stock:  # big hands: blocks are reached by draws often
        rules = LiarRules(**(rules.options() | {"players": players,
                                                "hand_size": 52 // players - 1}))
    rng = random.Random(seed)
    hands, stock = deal(rules, rng)
    state = new_game(rules, hands, stock, seed)
    for _ in range(300):
        if state.to_move is None:
            break
        state = push(state, random_action(state, rng))
        check_certain(state)


def relabel(action: Action, sigma: dict[Card, Card]) -> Action:
    if isinstance(action, Play):
        return Play(tuple(sigma[c] for c in action.cards), action.rate)
    if isinstance(action, Give):
        return Give(tuple(sigma[c] for c in action.cards))
    return action


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32),
       st.sampled_from(["", "multi", "multi,revolution,jack_back,six_up,eight_cut,binding"]),
       st.integers(2, 5), st.booleans())
def test_known_places_leak_nothing_hidden(seed: int, rules_text: str, players: int,
                                          small_stock: bool) -> None:
    """The same public history with other hidden cards (every card never shown and not
    deciding L4 relabelled) gives the same public view, known places included, and every
    seat's view holds the spectator's known places."""
    rules = parse_rules_text(rules_text, players)
    if small_stock:
        rules = LiarRules(**(rules.options() | {"players": players,
                                                "hand_size": 52 // players - 1}))
    rng = random.Random(seed)
    hands, stock = deal(rules, rng)
    first = new_game(rules, hands, stock, seed)
    state, actions = first, []
    for _ in range(rng.randrange(20, 200)):
        if state.to_move is None:
            break
        action = random_action(state, rng)
        actions.append(action)
        state = push(state, action)
    # L4: the cards up to the starter's card stay put, so both games have the same starter
    held = {c for hand in hands for c in hand}
    decides = next(i for i, c in enumerate(L4_ORDER) if c in held) + 1
    fixed = {c for d in state.doubts for c in d.cards} | set(L4_ORDER[:max(decides, 8)])
    free = [c for c in DECK if c not in fixed]
    sigma = dict(zip(free, rng.sample(free, len(free)), strict=True))
    sigma.update({c: c for c in fixed})
    other = new_game(rules, [[sigma[c] for c in h] for h in hands], [sigma[c] for c in stock],
                     seed)
    a, b = first, other
    for action in actions:
        a = apply(a, action).state
        b = apply(b, relabel(action, sigma)).state
        assert view(a, None).to_json() == view(b, None).to_json()
        for seat in range(players):
            assert view(a, seat).known_places == view(a, None).known_places
            assert view(b, seat).known_before_play == view(a, None).known_before_play
    # unless the random relabelling happens to be the identity (few free cards), it moved
    # some hidden card: in a hand, the stock, or the field (a game over leaves it, L11)
    moved = any(sigma[c] != c for c in free)
    assert not moved or a.hands != b.hands or a.stock != b.stock or a.field != b.field
