"""One focused test per clause of the Liar Game's rules L1-L11 (RULES.md Part 2)."""

from __future__ import annotations

import random

import pytest
from liar_support import cards, cards_conserved, names, run, run_events, start

from usotsuki.cards import DECK
from usotsuki.core.errors import IllegalAction, InvalidDeal, InvalidRules
from usotsuki.core.events import visible_to
from usotsuki.liar import (
    ACCEPT,
    DOUBT,
    PASS,
    RATE_NAMES,
    LiarRules,
    apply,
    legal_summary,
    new_game,
    parse_action,
    rate_of,
)
from usotsuki.liar.actions import HIGHER, parse_rate
from usotsuki.liar.events import Doubted, Drew, DrewCards, Flushed, GameOver, Played, PlayedCards
from usotsuki.liar.match import deal
from usotsuki.liar.state import FieldPlay, starter

THREE = ("3S 5D 9C", "4H 6S TD", "7H 8C JS")


def illegal(state, text: str) -> str:
    with pytest.raises(IllegalAction) as caught:
        apply(state, parse_action(text))
    return str(caught.value)


# L1 --------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 8])
def test_l1_two_to_eight_players(players: int) -> None:
    assert LiarRules(players=players).players == players


@pytest.mark.parametrize("players", [0, 1, 9, True])
def test_l1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(InvalidRules, match="players"):
        LiarRules(players=players)


# L2 --------------------------------------------------------------------------

def test_l2_normal_order_runs_3_to_2() -> None:
    assert RATE_NAMES == "3456789TJQKA2"
    assert [RATE_NAMES[rate_of(c)] for c in cards("3S TD AH 2C")] == ["3", "T", "A", "2"]
    assert parse_rate("10") == RATE_NAMES.index("T")


def test_l2_higher_means_higher_in_the_order_in_force() -> None:
    k = parse_rate("K")
    assert [RATE_NAMES[r] for r in HIGHER[False][k]] == ["A", "2"]
    assert [RATE_NAMES[r] for r in HIGHER[True][k]] == list("3456789TJQ")


def test_l2_nothing_is_higher_than_2() -> None:
    state = run(start(*THREE), "play 3S as 2")
    summary = legal_summary(state)
    assert summary is not None and not summary.play
    assert "not higher than 2" in illegal(state, "play 4H as A")


# L3 --------------------------------------------------------------------------

def test_l3_hand_size_cards_each_rest_is_stock() -> None:
    rules = LiarRules(players=4)
    hands, stock = deal(rules, random.Random(1))
    assert [len(h) for h in hands] == [9, 9, 9, 9] and len(stock) == 16
    assert sorted([*sum(hands, ()), *stock]) == list(DECK)


def test_l3_six_players_get_all_cards_from_seat_0() -> None:
    rules = LiarRules(players=6)
    assert rules.deals_all and rules.hand_sizes() == (9, 9, 9, 9, 8, 8)
    hands, stock = deal(rules, random.Random(2))
    assert [len(h) for h in hands] == [9, 9, 9, 9, 8, 8] and stock == ()


def test_l3_seven_players_of_seven_still_leave_a_stock() -> None:
    rules = LiarRules(players=7, hand_size=7)
    assert not rules.deals_all and rules.hand_sizes() == (7,) * 7


def test_l3_deal_all_option_for_any_count() -> None:
    rules = LiarRules(players=4, deal_all=True)
    assert rules.hand_sizes() == (13, 13, 13, 13)
    assert LiarRules(players=3, deal_all=True).hand_sizes() == (18, 17, 17)


def test_l3_a_hand_larger_than_any_table_can_deal_deals_the_whole_deck() -> None:
    """26 each is the most two players can get; a larger hand_size is a valid option
    (Part 4: any integer >= 1) and L3 deals all 52 (the server refuses it at its tables)."""
    assert LiarRules(players=2, hand_size=26).hand_sizes() == (26, 26)
    for size in (27, 52, 10**30):
        rules = LiarRules(players=2, hand_size=size)
        assert rules.deals_all and rules.hand_sizes() == (26, 26)
    with pytest.raises(InvalidRules, match="hand_size must be at least 1"):
        LiarRules(players=2, hand_size=0)


def test_l3_a_hand_of_the_wrong_size_is_refused() -> None:
    rules = LiarRules(players=2, hand_size=2)
    with pytest.raises(InvalidDeal, match="seat 1 holds 1"):
        new_game(rules, [cards("3S 4S"), cards("5S")], [c for c in DECK
                                                         if c not in cards("3S 4S 5S")])


def test_l3_the_deal_must_hold_every_card_once() -> None:
    rules = LiarRules(players=2, hand_size=1)
    rest = [c for c in DECK if c not in cards("3S 4S")]
    with pytest.raises(InvalidDeal, match="twice"):
        new_game(rules, [cards("3S"), cards("4S")], [*rest, cards("3S")[0]])
    with pytest.raises(InvalidDeal, match="missing 2S"):
        new_game(rules, [cards("3S"), cards("4S")], rest[1:])


# L4 --------------------------------------------------------------------------

def test_l4_holder_of_3s_starts() -> None:
    assert start("4H 6S", "7H 3S", "8C JS").to_move == 1


def test_l4_3h_starts_when_3s_is_in_the_stock() -> None:
    assert start("4H 6S", "7H 8C", "3H JS", stock="3S").to_move == 2


def test_l4_order_goes_by_rate_then_suit() -> None:
    hands = [cards(h) for h in ("4S KH", "4H 9C", "AS 2S")]
    assert starter(hands) == 0  # no 3 dealt: 4S comes first
    assert starter([cards("2S"), cards("AC")]) == 1  # the 2 is the highest rate


# L5 --------------------------------------------------------------------------

def test_l5_current_play_is_the_last_since_the_flush() -> None:
    state = run(start(*THREE), "play 3S as 3", "play 4H as 4")
    assert state.field == (FieldPlay(0, cards("3S"), 0), FieldPlay(1, cards("4H"), 1))
    assert state.current == FieldPlay(1, cards("4H"), parse_rate("4"))


# L6 --------------------------------------------------------------------------

def test_l6_the_leader_must_play() -> None:
    state = start(*THREE)
    assert "leader must play (L6)" in illegal(state, "pass")
    assert "leader must play (L6)" in illegal(state, "doubt")
    summary = legal_summary(state)
    assert summary is not None and not summary.pass_ and not summary.doubt


def test_l6_a_lead_may_declare_any_rate_and_lie() -> None:
    state = run(start(*THREE), "play 3S as 2")
    assert state.current == FieldPlay(0, cards("3S"), parse_rate("2"))


def test_l6_without_o1_a_play_is_one_card() -> None:
    assert "exactly one card" in illegal(start(*THREE), "play 3S 5D as 3")


def test_l6_the_declared_rate_must_be_higher() -> None:
    state = run(start(*THREE), "play 3S as 7")
    assert illegal(state, "play 4H as 5") == \
        "declared 5 is not higher than 7 in the normal order (L6)"
    assert "not higher" in illegal(state, "play 4H as 7")


def test_l6_only_cards_in_hand() -> None:
    assert "7H is not in seat 0's hand" in illegal(start(*THREE), "play 7H as 7")


def test_l6_pass_draws_the_top_card() -> None:
    state = run(start(*THREE, stock="KD"), "play 3S as 3", "pass")
    assert names(state.hands[1]) == ["4H", "6S", "TD", "KD"]
    assert state.stock[0] != cards("KD")[0] and len(state.stock) == 42


def deal_all_state(players: int, **options: object):
    """Every card dealt round the table in deck order: the stock is empty."""
    hands = (" ".join(str(c) for c in DECK[i::players]) for i in range(players))
    return start(*hands, deal_all=True, **options)


def test_l6_pass_with_an_empty_stock_draws_nothing() -> None:
    state = deal_all_state(3)
    assert state.to_move == 1 and state.stock == ()  # 3S is DECK[4]
    state = run(state, "play 3S as 3", "pass")
    assert [len(h) for h in state.hands] == [18, 16, 17] and state.to_move == 0


def test_l6_pass_draws_before_the_flush_it_brings() -> None:
    # the stock is empty: the passer draws nothing, then the flush puts 3S in the stock
    state = run(deal_all_state(2), "play 3S as 3", "pass")
    assert [len(h) for h in state.hands] == [25, 26]
    assert state.stock == cards("3S") and state.field == () and state.to_move == 0


def test_l6_anyone_to_move_may_doubt_after_passes() -> None:
    state = run(start(*THREE), "play 3S as 4", "pass", "doubt")
    assert state.doubts[0].doubter == 2 and state.doubts[0].truthful is False


# L7 --------------------------------------------------------------------------

def test_l7_all_passed_flushes_and_the_player_leads() -> None:
    state = run(start(*THREE), "play 3S as 3", "pass")
    assert state.field and state.to_move == 2
    state, events = run_events(state, "pass")
    assert state.field == () and state.to_move == 0
    assert state.stock[-1] == cards("3S")[0]
    assert Flushed(1, "all passed") in events


def test_l7_the_last_player_to_play_leads() -> None:
    state = run(start(*THREE), "play 3S as 3", "play 4H as 4", "pass", "pass")
    assert state.field == () and state.to_move == 1


def test_l7_two_players_one_pass_flushes() -> None:
    state = run(start("3S 5D", "4H 6S"), "play 3S as 3", "pass")
    assert state.field == () and state.to_move == 0


# L8 --------------------------------------------------------------------------

def test_l8_flush_shuffles_with_the_record_generator_and_puts_under() -> None:
    state = start(*THREE, seed="shuffle")
    before = state.stock
    state = run(state, "play 3S as 3", "play 4H as 4", "play 7H as 5", "pass", "pass")
    expected = list(cards("3S 4H 7H"))
    random.Random("shuffle").shuffle(expected)
    assert state.stock[len(before) - 2:] == tuple(expected)  # two cards drawn from the top
    assert state.stock[:len(before) - 2] == before[2:]


def test_l8_successive_flushes_continue_one_generator() -> None:
    state = start(*THREE, seed=11)
    state = run(state, "play 3S as 3", "pass", "pass",
                "play 5D as 4", "play 4H as 6", "pass", "pass")
    rng = random.Random(11)
    first, second = list(cards("3S")), list(cards("5D 4H"))
    rng.shuffle(first)
    rng.shuffle(second)
    assert state.stock[-3:] == tuple(first + second)


# L9 --------------------------------------------------------------------------

def test_l9_truthful_doubter_draws_the_whole_field() -> None:
    state, events = run_events(run(start(*THREE), "play 3S as 3", "play 4H as 4",
                                   "play 7H as 7"), "doubt")
    assert [len(h) for h in state.hands] == [5, 2, 2]  # N = 3 cards, not just the 7H
    assert state.to_move == 2 and state.field == ()
    assert Doubted(0, 2, cards("7H"), parse_rate("7"), True) in events
    assert names(state.hands[0])[-3:] == ["2S", "2H", "2D"]


def test_l9_lie_drawer_takes_field() -> None:
    state = run(start(*THREE), "play 3S as 3", "play 4H as 4", "play 7H as 9", "doubt")
    assert [len(h) for h in state.hands] == [2, 2, 5]
    assert state.to_move == 0  # the doubter leads
    (doubt,) = state.doubts
    assert (doubt.doubter, doubt.doubted, doubt.truthful, doubt.drawer, doubt.drawn) == \
        (0, 2, False, 2, 3)


def test_l9_flush_first_so_a_short_stock_gives_back_field_cards() -> None:
    state = deal_all_state(2, seed=3)
    assert state.stock == () and state.to_move == 0  # 3S is DECK[4]: seat 0
    state = run(state, "play 3S as 3", "play 4H as 4", "doubt")  # 4H is truthful
    assert [len(h) for h in state.hands] == [27, 25] and state.to_move == 1
    assert set(cards("3S 4H")) <= set(state.hands[0]) and state.stock == ()
    assert cards_conserved(state)


def test_l9_a_multi_card_play_is_truthful_only_if_every_card_has_the_rate() -> None:
    state = start("3S 3H 9C", "4H 6S TD", "7H 8C JS", multi=True)
    state = run(state, "play 3S 3H as 3", "doubt")
    assert state.doubts[-1].truthful
    state = start("3S 3H 9C", "4H 6S TD", "7H 8C JS", multi=True)
    state = run(state, "play 3S 9C as 3", "doubt")
    assert not state.doubts[-1].truthful and state.doubts[-1].drawer == 0


def test_l9_doubt_events_reveal_to_all_and_draws_to_the_drawer() -> None:
    state = run(start(*THREE), "play 3S as 9")
    _, events = run_events(state, "doubt")
    assert Doubted(1, 0, cards("3S"), parse_rate("9"), False) in events
    drawn = next(e for e in events if isinstance(e, DrewCards))
    assert drawn.audience == frozenset({0}) and Drew(0, 1) in events


# L10 --------------------------------------------------------------------------

def out_state(**options: object):
    return run(start("3S 9C", "4H TD", "7H JS", **options),
               "play 3S as 3", "play 4H as 4", "play 7H as 7", "play 9C as 9")


def test_l10_after_going_out_next_may_only_doubt_or_accept() -> None:
    state = out_state()
    assert state.awaiting_final_doubt and state.to_move == 1
    summary = legal_summary(state)
    assert summary is not None
    assert (summary.pass_, summary.doubt, summary.accept, summary.play) == \
        (False, True, True, False)
    assert "may only doubt or accept (L10)" in illegal(state, "pass")
    assert "may only doubt or accept (L10)" in illegal(state, "play TD as T")


def test_l10_accept_makes_the_winner() -> None:
    state, events = run_events(out_state(), "accept")
    assert state.is_over and state.winner == 0 and state.to_move is None
    assert state.standings == ((0,), (1, 2)) and len(state.field) == 4
    assert GameOver(0, ((0,), (1, 2))) in events


def test_l10_truthful_final_doubt_wins_and_doubter_draws() -> None:
    state = run(out_state(), "doubt")
    assert state.winner == 0 and [len(h) for h in state.hands] == [0, 5, 1]
    assert state.standings == ((0,), (2,), (1,))


def test_l10_lie_final_doubt_goes_on() -> None:
    state = run(start("3S 9C", "4H TD", "7H JS"),
                "play 3S as 3", "play 4H as 4", "play 7H as 7", "play 9C as T", "doubt")
    assert not state.is_over and [len(h) for h in state.hands] == [4, 1, 1]
    assert state.to_move == 1 and state.field == ()


def test_l10_accept_only_after_a_play_that_emptied_a_hand() -> None:
    assert "accept answers only" in illegal(run(start(*THREE), "play 3S as 3"), "accept")


def test_l10_without_final_doubt_the_game_ends_at_once() -> None:
    state = out_state(final_doubt=False)
    assert state.is_over and state.winner == 0 and len(state.field) == 4


# L11 --------------------------------------------------------------------------

def test_l11_standings_by_cards_with_shared_places() -> None:
    state = run(start("3S 9C", "4H TD", "7H JS", "8D KH", final_doubt=False),
                "play 3S as 3", "pass", "pass", "play 8D as 8", "play 9C as 9")
    assert state.standings == ((0,), (3,), (1, 2))


def test_l11_turn_limit_ends_after_the_action_with_no_winner() -> None:
    state = start(*THREE, turn_limit=3)
    state = run(state, "play 3S as 3", "pass")
    assert not state.is_over
    state, events = run_events(state, "pass")  # the third action, its L7 flush included
    assert state.is_over and state.winner is None and state.field == ()
    assert state.standings == ((0,), (1, 2))
    assert isinstance(events[-1], GameOver)
    assert "the game is over" in illegal(state, "play 5D as 5")


def test_l11_turn_limit_keeps_a_winner_made_by_the_last_action() -> None:
    state = run(out_state(turn_limit=5), "accept")
    assert state.winner == 0 and state.standings == ((0,), (1, 2))


def test_l11_turn_limit_places_a_player_awaiting_final_doubt_first() -> None:
    state = out_state(turn_limit=4)
    assert state.is_over and state.winner is None
    assert state.standings == ((0,), (1, 2)) and len(state.field) == 4  # no flush


def test_l11_ending_a_game_flushes_nothing() -> None:
    state = run(start(*THREE, turn_limit=2), "play 3S as 3", "play 4H as 4")
    assert state.is_over and len(state.field) == 2


# events --------------------------------------------------------------------------

def test_play_events_show_count_and_rate_to_all_and_cards_to_the_player() -> None:
    _, events = run_events(start(*THREE), "play 3S as 9")
    assert Played(0, 1, parse_rate("9")) in events
    private = next(e for e in events if isinstance(e, PlayedCards))
    assert private.cards == cards("3S") and private.audience == frozenset({0})
    assert not visible_to(private, 1) and visible_to(Played(0, 1, 6), None)


def test_simple_actions_are_singletons() -> None:
    assert parse_action("pass") is PASS and parse_action("doubt") is DOUBT
    assert parse_action("accept") is ACCEPT


def test_l3_a_deal_of_things_that_are_not_cards_is_refused() -> None:
    rules = LiarRules(players=2, hand_size=1)
    for bad in (-1, 52, "3S", True):
        with pytest.raises(InvalidDeal, match="not a card"):
            new_game(rules, [[bad], cards("4S")], [c for c in DECK if c not in cards("4S")])

