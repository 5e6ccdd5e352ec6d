"""One focused test per house rule O1-O7 (RULES.md Part 2, options)."""

from __future__ import annotations

from math import comb

import pytest
from liar_support import cards, names, run, run_events, start

from usotsuki.cards import DECK
from usotsuki.core.errors import IllegalAction, InvalidRules
from usotsuki.liar import (
    DOUBT,
    PASS,
    LiarRules,
    apply,
    iter_legal_actions,
    legal_summary,
    next_game,
    parse_action,
    parse_rules_text,
)
from usotsuki.liar.actions import RATE_NAMES
from usotsuki.liar.events import Bound, Gave, GaveCards, OrderChanged
from usotsuki.liar.state import Exchange, class_order


def illegal(state, text: str) -> str:
    with pytest.raises(IllegalAction) as caught:
        apply(state, parse_action(text))
    return str(caught.value)


def rates(state) -> str:
    summary = legal_summary(state)
    assert summary is not None
    return "".join(RATE_NAMES[r] for r in summary.rates) if summary.play else "-"


# O1 multi --------------------------------------------------------------------------

def test_o1_a_lead_may_play_one_card_up_to_the_whole_hand() -> None:
    state = start("3S 3H 5D 9C KC", "4H 4D 6S TD QS", "7H 7C 8C JS AD", multi=True)
    summary = legal_summary(state)
    assert summary is not None and summary.counts == (1, 2, 3, 4, 5)
    state = run(state, "play 3S 3H 5D as 3")
    assert len(state.current.cards) == 3 and [len(h) for h in state.hands] == [2, 5, 5]


def test_o1_later_plays_match_the_count() -> None:
    state = run(start("3S 3H 5D", "4H 4D 6S", "7H 7C 8C", multi=True), "play 3S 3H as 3")
    summary = legal_summary(state)
    assert summary is not None and summary.counts == (2,)
    assert "must have 2 card(s)" in illegal(state, "play 4H as 4")
    assert "must have 2 card(s)" in illegal(state, "play 4H 4D 6S as 4")
    run(state, "play 4H 6S as 4")


def test_o1_a_hand_smaller_than_the_count_cannot_play() -> None:
    state = start("3S 3H 3D", "4H 4D 6S", "7H 7C 8C", multi=True)
    state = run(state, "play 3S 3H as 3", "play 4H 4D as 4", "play 7H 7C as 5")
    summary = legal_summary(state)
    assert summary is not None and not summary.play and summary.pass_ and summary.doubt


def test_o1_listing_every_concrete_action() -> None:
    state = start("3S 3H 5D 9C", "4H 4D 6S TD", "7H 7C 8C JS", multi=True)
    listed = list(iter_legal_actions(state))
    assert len(listed) == sum(comb(4, k) for k in range(1, 5)) * 13  # a lead: no pass
    state = run(state, "play 3S 3H as 5")
    listed = list(iter_legal_actions(state))
    assert len(listed) == 2 + comb(4, 2) * len("6789TJQKA2")
    assert listed[:2] == [PASS, DOUBT]


# O2 revolution --------------------------------------------------------------------------

REVOLUTION = ("3S 3H 3D 3C 5S 9C KC QD", "4S 4H 4D 4C 6S TD QS 8H", "7H 7C 7D 7S AD JS 9H TS")


def test_o2_needs_o1() -> None:
    with pytest.raises(InvalidRules, match=r"revolution needs multi \(O2 needs O1\)"):
        LiarRules(players=3, revolution=True)


def test_o2_four_cards_reverse_the_order_past_the_flush() -> None:
    state, events = run_events(start(*REVOLUTION, multi=True, revolution=True),
                               "play 3S 3H 3D 3C as 3")
    assert state.reversed and OrderChanged(True, "revolution") in events
    state = run(state, "pass", "pass")
    assert state.field == () and state.reversed and state.revolution


def test_o2_three_cards_do_not_reverse() -> None:
    state = run(start(*REVOLUTION, multi=True, revolution=True), "play 3S 3H 3D as 3")
    assert not state.reversed


def test_o2_holds_even_when_the_play_was_a_lie() -> None:
    state = run(start(*REVOLUTION, multi=True, revolution=True),
                "play 3S 3H 3D 9C as 3", "doubt")
    assert not state.doubts[-1].truthful and state.reversed


def test_o2_each_revolution_reverses_again() -> None:
    state = run(start(*REVOLUTION, multi=True, revolution=True),
                "play 3S 3H 3D 3C as K", "play 4S 4H 4D 4C as Q")
    assert not state.reversed
    assert rates(state) == "KA2"


# O3 eight_cut --------------------------------------------------------------------------

THREE = ("3S 5D 9C", "4H 6S TD", "7H 8C JS")


def test_o3_after_an_8_others_may_only_pass_or_doubt() -> None:
    state = run(start(*THREE, eight_cut=True), "play 3S as 3", "play 6S as 8")
    assert rates(state) == "-"
    assert "only pass or doubt (O3)" in illegal(state, "play 7H as 9")
    state = run(state, "pass", "pass")
    assert state.field == () and state.to_move == 1  # the 8's player leads again


def test_o3_a_play_of_several_cards_declared_8_cuts_too() -> None:
    # O3 speaks of "a play declared 8": with O1 a play of any count declares one rate.
    state = run(start(*THREE, multi=True, eight_cut=True), "play 3S 5D as 8")
    summary = legal_summary(state)
    assert summary is not None and rates(state) == "-"
    assert (summary.pass_, summary.doubt) == (True, True)
    assert "only pass or doubt (O3)" in illegal(state, "play 4H 6S as 9")
    state = run(state, "pass", "pass")
    assert state.field == () and state.to_move == 0  # the 8's player leads again


def test_o3_off_a_play_of_several_8s_is_an_ordinary_play() -> None:
    state = run(start(*THREE, multi=True), "play 3S 5D as 8")
    assert rates(state) == "9TJQKA2"


def test_o3_off_an_8_is_an_ordinary_rate() -> None:
    state = run(start(*THREE), "play 3S as 3", "play 6S as 8")
    assert rates(state) == "9TJQKA2"


def test_o3_an_8_that_empties_a_hand_brings_l10_instead() -> None:
    state = run(start("3S", "4H", "7H", eight_cut=True), "play 3S as 8")
    summary = legal_summary(state)
    assert summary is not None
    assert (summary.pass_, summary.doubt, summary.accept) == (False, True, True)


# O4 jack_back --------------------------------------------------------------------------

JACKS = ("3S 5D 9C KC", "4H 6S TD QS", "7H 8C JS AD")


def test_o4_a_j_reverses_the_order_until_the_flush() -> None:
    state = run(start(*JACKS, jack_back=True), "play 3S as 3", "play 4H as 4", "play JS as J")
    assert state.reversed and rates(state) == "3456789T"
    state, events = run_events(run(state, "pass"), "pass")
    assert state.field == () and not state.reversed
    assert OrderChanged(False, "flush") in events


def test_o4_a_doubt_flush_ends_the_j_back() -> None:
    state = run(start(*JACKS, jack_back=True), "play 3S as J", "doubt")
    assert not state.reversed and not state.jack_back


def test_o4_a_second_j_cancels_and_combines_with_a_revolution() -> None:
    hands = ("3S 3H 3D 3C 5S 5H 5D 5C", "4S 4H 4D 4C 6S 6H 6D 6C",
             "7S 7H 7D 7C 8S 8H 8D 8C")
    state = start(*hands, multi=True, revolution=True, jack_back=True)
    state = run(state, "play 3S 3H 3D 3C as Q")  # revolution: reversed
    assert state.reversed
    state = run(state, "play 4S 4H 4D 4C as J")  # revolution again + J-back: reversed
    assert (state.revolution, state.jack_back, state.reversed) == (False, True, True)
    state = run(state, "play 7S 7H 7D 7C as T")  # revolution + J-back: two reversals
    assert (state.revolution, state.jack_back, state.reversed) == (True, True, False)
    state = run(state, "play 5S 5H 5D 5C as J")  # the second J cancels the first
    assert (state.revolution, state.jack_back, state.reversed) == (False, False, False)


def test_o4_off_a_j_is_an_ordinary_rate() -> None:
    state = run(start(*JACKS), "play 3S as J")
    assert not state.reversed and rates(state) == "QKA2"


# O5 six_up --------------------------------------------------------------------------

def test_o5_needs_o4() -> None:
    with pytest.raises(InvalidRules, match="six_up needs jack_back"):
        LiarRules(players=3, six_up=True)


def test_o5_a_6_ends_the_j_back() -> None:
    state = run(start(*JACKS, jack_back=True, six_up=True),
                "play 3S as 3", "play 4H as J", "play 7H as 8")
    assert state.reversed
    state, events = run_events(state, "play 5D as 6")
    assert not state.reversed and OrderChanged(False, "six up") in events
    assert rates(state) == "789TJQKA2"


def test_o5_without_six_up_a_6_keeps_the_j_back() -> None:
    state = run(start(*JACKS, jack_back=True), "play 3S as 3", "play 4H as J",
                "play 7H as 8", "play 5D as 6")
    assert state.reversed and rates(state) == "345"


def test_o5_a_6_without_a_j_back_changes_nothing() -> None:
    state = run(start(*JACKS, jack_back=True, six_up=True), "play 3S as 6")
    assert not state.reversed and rates(state) == "789TJQKA2"


# O6 binding --------------------------------------------------------------------------

def test_o6_the_next_rate_binds_the_field() -> None:
    state, events = run_events(run(start(*JACKS, binding=True), "play 3S as 5"), "play 4H as 6")
    assert state.bound and Bound(RATE_NAMES.index("6")) in events
    assert rates(state) == "7"
    assert "must declare 7" in illegal(state, "play 7H as 8")


def test_o6_a_gap_does_not_bind() -> None:
    state = run(start(*JACKS, binding=True), "play 3S as 5", "play 4H as 7")
    assert not state.bound and rates(state) == "89TJQKA2"


def test_o6_when_no_next_rate_exists_nobody_can_play() -> None:
    state = run(start(*JACKS, binding=True), "play 3S as A", "play 4H as 2")
    assert state.bound and rates(state) == "-"
    assert "nobody can play on it (O6)" in illegal(state, "play 7H as 2")
    state = run(state, "pass", "pass")  # the field flushes and the binding ends
    assert not state.bound and rates(state) == "3456789TJQKA2"


def test_o6_binding_follows_the_order_in_force_just_before_each_play() -> None:
    state = start(*JACKS, binding=True, jack_back=True)
    state = run(state, "play 3S as T", "play 4H as J")  # J is next after T in normal order
    assert state.bound and state.reversed
    assert rates(state) == "T"  # next above J in the reversed order now in force
    state = run(state, "play 7H as T")
    assert rates(state) == "9"


def test_o6_under_a_j_back_the_next_rate_is_the_next_in_the_reversed_order() -> None:
    # O6: "the next rate above the previous play's declared rate (in the order in force
    # just before this play)"; after a J (O4) that order is reversed, so T follows J.
    state = run(start(*JACKS, binding=True, jack_back=True), "play 3S as 3", "play 4H as J")
    assert state.reversed and not state.bound and rates(state) == "3456789T"
    state, events = run_events(state, "play 7H as T")
    assert state.bound and Bound(RATE_NAMES.index("T")) in events
    assert rates(state) == "9"  # bound: exactly the next rate, still in the reversed order
    assert "must declare 9" in illegal(state, "play 5D as 8")


def test_o6_under_a_j_back_a_gap_does_not_bind() -> None:
    state = run(start(*JACKS, binding=True, jack_back=True), "play 3S as 3", "play 4H as J",
                "play 7H as 9")
    assert state.reversed and not state.bound and rates(state) == "345678"


def test_o6_off_consecutive_rates_do_not_bind() -> None:
    state = run(start(*JACKS), "play 3S as 5", "play 4H as 6")
    assert not state.bound and rates(state) == "789TJQKA2"


# O7 classes --------------------------------------------------------------------------

def first_game(**options: object):
    """Seat 2 goes out at once; the others keep 3 cards each."""
    state = start("4H 6S TD", "5D QS AD", "3S 9C KC", "7H 8C JS",
                  multi=True, classes=True, **options)
    return run(state, "play 3S 9C KC as 9", "accept")


SECOND = [cards(h) for h in ("5H KD 9S", "2C AH 4C", "3S 6D 8D", "7S TC JD")]


def second_stock(hands=SECOND):
    used = {c for h in hands for c in h}
    return [c for c in DECK if c not in used]


def test_o7_classes_break_ties_clockwise_from_the_winner() -> None:
    state = first_game()
    assert state.standings == ((2,), (0, 1, 3))
    assert class_order(state.standings, state.winner, 4) == (2, 3, 0, 1)


def test_o7_no_winner_ties_go_by_seat() -> None:
    assert class_order(((1,), (0, 2, 3)), None, 4) == (1, 0, 2, 3)


def test_o7_lower_players_give_their_highest_cards_at_once() -> None:
    step = next_game(first_game(), SECOND, second_stock())
    state = step.state
    assert names(state.hands[1]) == ["4C"]  # last gave 2C AH
    assert names(state.hands[2]) == ["3S", "6D", "8D", "2C", "AH"]
    assert names(state.hands[0]) == ["5H", "9S"]  # second-last gave KD to the second
    assert state.owed == (Exchange(2, 1, 2), Exchange(3, 0, 1))
    assert state.to_move == 2 and state.game == 1 and state.classes == (2, 3, 0, 1)
    assert Gave(1, 2, 2, True) in step.events
    private = next(e for e in step.events if isinstance(e, GaveCards))
    assert private.audience == frozenset({1, 2})


def test_o7_the_gift_takes_spades_first_among_equal_rates() -> None:
    hands = [cards(h) for h in ("5H KD 9S", "2H 4C 2S", "3S 6D 8D", "7S TC JD")]
    state = next_game(first_game(), hands, second_stock(hands)).state
    assert names(state.hands[2])[-2:] == ["2S", "2H"]


def test_o7_higher_players_give_first_place_first_then_l4() -> None:
    state = next_game(first_game(), SECOND, second_stock()).state
    assert "seat 2 must first give 2 card(s)" in illegal(state, "play 3S as 3")
    assert "gives exactly 2" in illegal(state, "give 3S")
    assert "not in seat 2's hand" in illegal(state, "give 3S 5H")
    state = run(state, "give 3S 6D")
    assert state.to_move == 3 and state.owed == (Exchange(3, 0, 1),)
    state = run(state, "give 7S")
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert state.to_move == 1 and state.turns == 0  # 3S went to seat 1; gives are no turns
    assert "no exchange to make" in illegal(state, "give 3S")


def test_o7_a_higher_player_may_give_back_a_card_just_received() -> None:
    state = run(next_game(first_game(), SECOND, second_stock()).state, "give 2C AH", "give KD")
    assert names(state.hands[1]) == ["4C", "2C", "AH"] and names(state.hands[0])[-1] == "KD"


def test_o7_three_players_exchange_one_card() -> None:
    state = run(start("3S 9C", "4H TD", "7H JS", classes=True), "play 3S as 3",
                "play 4H as 4", "play 7H as 7", "play 9C as 9", "accept")
    hands = [cards(h) for h in ("5H KD", "2C AH", "3S 6D")]
    state = next_game(state, hands, second_stock(hands)).state
    assert state.owed == (Exchange(0, 2, 1),)  # classes 0, 1, 2 (1 and 2 tied: clockwise)


def test_o7_two_players_exchange_one_card() -> None:
    state = run(start("3S", "4H", classes=True), "play 3S as 3", "accept")
    hands = [cards("5H"), cards("2C")]
    state = next_game(state, hands, second_stock(hands)).state
    assert state.owed == (Exchange(0, 1, 1),) and names(state.hands[0]) == ["5H", "2C"]


def test_o7_small_hands_exchange_what_both_allow() -> None:
    state = run(start("3S", "4H", "7H", "8C", classes=True), "play 3S as 3", "accept")
    hands = [cards(h) for h in ("5H", "2C", "3S", "7S")]
    state = next_game(state, hands, second_stock(hands)).state
    assert state.owed == (Exchange(0, 3, 1), Exchange(1, 2, 1))


def test_o7_each_game_starts_in_normal_order() -> None:
    state = start("3S 3H 3D 3C", "4H 4D 4S 4C", "7H 7C 7D 7S", multi=True, revolution=True,
                  classes=True)
    state = run(state, "play 3S 3H 3D 3C as 3", "accept")
    assert state.is_over and state.reversed
    hands = [cards(h) for h in ("5H KD 9S 2D", "2C AH 4C 3D", "3S 6D 8D 7D")]
    assert not next_game(state, hands, second_stock(hands)).state.reversed


def test_o7_next_game_needs_classes_and_a_finished_game() -> None:
    with pytest.raises(IllegalAction, match="classes"):
        next_game(run(start("3S", "4H"), "play 3S as 3", "accept"), [cards("3S"), cards("4H")],
                  second_stock([cards("3S"), cards("4H")]))
    with pytest.raises(IllegalAction, match="not over"):
        next_game(start("3S", "4H", classes=True), [cards("3S"), cards("4H")],
                  second_stock([cards("3S"), cards("4H")]))


# rules from text --------------------------------------------------------------------------

def test_rules_from_cli_text() -> None:
    rules = parse_rules_text("multi,revolution", players=4)
    assert rules.multi and rules.revolution and not rules.jack_back
    assert parse_rules_text("all", players=4).classes
    assert parse_rules_text("eight-cut, turn_limit=50, final_doubt=false", 3).turn_limit == 50
    with pytest.raises(InvalidRules, match="unknown rule"):
        parse_rules_text("multy", players=4)
    with pytest.raises(InvalidRules, match="needs multi"):
        parse_rules_text("revolution", players=4)
