"""One test per clause of RULES.md Part 1 (Bluff, B1-B12).

Each test pins a sentence of the rule book. Games are driven through the rules core
(``new_game``/``start_round``/``apply``) or, where the record is the clearer witness,
through ``replay_report`` on a Part 4 record.
"""

from __future__ import annotations

import pytest
from bluff_support import ALL_326, record, rnd

from usotsuki.bluff import (
    ALL_CALLS,
    CHALLENGE,
    BluffRules,
    BluffState,
    apply,
    is_true,
    legal_actions,
    new_game,
    parse_action,
    start_round,
    view,
)
from usotsuki.bluff.deal import deal_hands
from usotsuki.bluff.events import Challenged, GameOver
from usotsuki.bluff.record import replay_report
from usotsuki.cards import parse_cards
from usotsuki.core.errors import IllegalAction, InvalidDeal, InvalidNotation, InvalidRules


def deal(state: BluffState, *hands: str) -> BluffState:
    """Deal hands written as space-separated cards ("" for an empty hand)."""
    return start_round(state, [parse_cards(h.split()) for h in hands]).state


def act(state: BluffState, *actions: str) -> BluffState:
    for text in actions:
        state = apply(state, parse_action(text)).state
    return state


def texts(actions: object) -> list[str]:
    return [str(a) for a in actions]  # type: ignore[attr-defined]


def truth(call: str, *hands: str) -> bool:
    return is_true(parse_action(call), tuple(parse_cards(h.split()) for h in hands))


def replay(players: int | list[str], *rounds: dict[str, object], **rules: object) -> dict:
    return replay_report(record(players, list(rounds), **rules))


# --- B1 Players --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_b1_three_to_eight_players(players: int) -> None:
    assert BluffRules(players=players).players == players
    out = replay(players)
    assert out["ok"] and out["to_move"] == 1


def test_b1_two_players_is_an_allowed_variant() -> None:
    state = deal(new_game(BluffRules(players=2)), "AS", "KS")
    state = act(state, "card A", "challenge")  # true: the challenger, seat 0, loses
    assert state.results[-1].loser == 0 and state.to_move == 1 and not state.is_over
    assert replay(2)["ok"]


@pytest.mark.parametrize("players", [0, 1, 9, 52])
def test_b1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(InvalidRules):
        BluffRules(players=players)
    out = replay(players)
    assert not out["ok"] and out["error"]["round"] is None and out["error"]["index"] is None


# --- B2 Option max_cards -----------------------------------------------------------------


def test_b2_max_cards_defaults_to_five() -> None:
    assert BluffRules(players=3).max_cards == 5


def test_b2_fifth_loss_eliminates_with_the_default() -> None:
    # Seat 1 makes a false "card A" every round and seat 0 challenges it. After round 0,
    # seat 1 lost, so seat 0 calls first (B4) and seat 1 answers with the bluff.
    rounds = [rnd([["KS"], ["2S"]], "card A", "challenge")]
    for losses in range(1, 5):
        hand1 = ["2S", "2H", "2D", "2C", "3S"][: losses + 1]
        rounds.append(rnd([["KS"], hand1], "card 9", "card A", "challenge"))
    out = replay(2, *rounds)
    assert out["ok"], out["error"]
    assert [r["loser"] for r in out["rounds"]] == [1] * 5
    assert [r["eliminated"] for r in out["rounds"]] == [False] * 4 + [True]
    assert out["finished"] and out["standings"] == [[0], [1]]


def test_b2_loser_holding_max_cards_is_eliminated() -> None:
    state = new_game(BluffRules(players=3, max_cards=2))
    state = act(deal(state, "2S", "3S", "4S"), "card A", "challenge")  # seat 1 loses
    assert state.losses == (0, 1, 0) and state.active == (True, True, True)
    # Seat 1 now holds 2 = max_cards cards; losing again eliminates it.
    state = act(deal(state, "2S", "3S 3H", "4S"), "card 5", "card A", "challenge")
    result = state.results[-1]
    assert (result.caller, result.loser, result.eliminated) == (0, 0, False)
    state = act(deal(state, "2S 2H", "3S 3H", "4S"), "card A", "challenge")
    # seat 1 called first (left of loser 0) and lost holding 2 cards
    assert state.results[-1].loser == 1 and state.results[-1].eliminated
    assert state.active == (True, False, True) and state.eliminated == (1,)


def test_b2_max_cards_one_means_the_first_loss_eliminates() -> None:
    out = replay(3, rnd([["2S"], ["3S"], ["4S"]], "card A", "challenge"), max_cards=1)
    assert out["rounds"][0]["eliminated"] is True and out["rounds"][0]["loser"] == 1


@pytest.mark.parametrize(("players", "max_cards", "ok"), [
    (8, 6, True), (8, 7, False), (2, 26, True), (2, 27, False), (4, 13, True),
    (4, 14, False), (5, 10, True), (5, 11, False), (7, 7, True), (7, 8, False),
])
def test_b2_players_times_max_cards_must_not_exceed_52(players: int, max_cards: int,
                                                      ok: bool) -> None:
    if ok:
        assert BluffRules(players=players, max_cards=max_cards).max_cards == max_cards
    else:
        with pytest.raises(InvalidRules, match="52"):
            BluffRules(players=players, max_cards=max_cards)
    out = replay(players, max_cards=max_cards)
    assert out["ok"] is ok
    if not ok:
        assert out["error"] == {**out["error"], "round": None, "index": None, "action": None}
        assert "52" in out["error"]["message"]


@pytest.mark.parametrize("max_cards", [0, -1])
def test_b2_max_cards_below_one_is_refused(max_cards: int) -> None:
    with pytest.raises(InvalidRules):
        BluffRules(players=3, max_cards=max_cards)
    assert not replay(3, max_cards=max_cards)["ok"]


# --- B3 Deal -----------------------------------------------------------------------------


def test_b3_each_player_is_dealt_losses_plus_one() -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), "card A", "challenge")
    assert [state.hand_size(s) for s in range(3)] == [1, 2, 1]
    with pytest.raises(InvalidDeal):
        deal(state, "2S", "3S", "4S")  # seat 1 must hold 2
    with pytest.raises(InvalidDeal):
        deal(state, "2S 2H", "3S 3H", "4S")  # seat 0 must hold 1
    assert deal(state, "2S", "3S 3H", "4S").hands is not None


def test_b3_eliminated_seat_is_dealt_nothing() -> None:
    state = new_game(BluffRules(players=3, max_cards=1))
    state = act(deal(state, "2S", "3S", "4S"), "card A", "challenge")  # seat 1 out
    assert state.hand_size(1) == 0
    with pytest.raises(InvalidDeal):
        deal(state, "2S", "3S", "4S")
    assert deal(state, "2S", "", "4S").hands == (parse_cards(["2S"]), (), parse_cards(["4S"]))


def test_b3_no_card_is_dealt_twice() -> None:
    state = new_game(BluffRules(players=3))
    with pytest.raises(InvalidDeal, match="twice"):
        deal(state, "2S", "3S", "2S")
    with pytest.raises(InvalidDeal, match="twice"):
        deal(state, "TS", "3S", "10s")  # the same card in two notations


def test_b3_one_hand_per_seat() -> None:
    with pytest.raises(InvalidDeal):
        deal(new_game(BluffRules(players=3)), "2S", "3S")


def test_b3_dealing_shuffles_the_whole_deck_for_players_still_in() -> None:
    import random

    state = new_game(BluffRules(players=4, max_cards=3))
    state = act(deal(state, "2S", "3S", "4S", "5S"), "card A", "challenge")
    seen: set[str] = set()
    for seed in range(200):
        hands = deal_hands(state, random.Random(seed))
        assert [len(h) for h in hands] == [1, 2, 1, 1]
        cards = [c for h in hands for c in h]
        assert len(set(cards)) == len(cards)
        seen.update(str(c) for c in cards)
    assert len(seen) == 52  # any card of the deck can be dealt


# --- B4 Who calls first ------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(5))
def test_b4_round1_first_caller_is_left_of_the_dealer(dealer: int) -> None:
    state = new_game(BluffRules(players=5, dealer=dealer))
    assert state.to_move == (dealer + 1) % 5
    out = replay(5, rnd([["2S"], ["3S"], ["4S"], ["5S"], ["6S"]]), dealer=dealer)
    assert out["to_move"] == (dealer + 1) % 5


def test_b4_dealer_defaults_to_seat_zero() -> None:
    assert BluffRules(players=4).dealer == 0
    assert new_game(BluffRules(players=4)).to_move == 1


@pytest.mark.parametrize("dealer", [-1, 4, 5])
def test_b4_dealer_must_be_a_seat(dealer: int) -> None:
    with pytest.raises(InvalidRules):
        BluffRules(players=4, dealer=dealer)
    assert not replay(4, dealer=dealer)["ok"]


def test_b4_later_rounds_start_left_of_the_previous_loser() -> None:
    state = deal(new_game(BluffRules(players=4)), "2S", "3S", "4S", "5S")
    state = act(state, "card 2", "card 9", "challenge")  # seat 2 called card 9: false
    assert state.results[-1].loser == 2
    assert state.dealer == 2 and state.to_move == 3
    state = act(deal(state, "2S", "3S", "4S 4H", "5S"), "card 5", "challenge")  # true
    assert state.results[-1].loser == 0 and state.to_move == 1


def test_b4_first_caller_wraps_past_the_last_seat() -> None:
    state = deal(new_game(BluffRules(players=3, dealer=1)), "2S", "3S", "4S")
    state = act(state, "card A", "challenge")  # seat 2 calls falsely, seat 0 challenges
    assert state.results[-1].loser == 2 and state.to_move == 0


def test_b4_first_caller_skips_eliminated_loser() -> None:
    # [resolved] the eliminated loser's seat still anchors who calls first.
    state = deal(new_game(BluffRules(players=4, max_cards=1)), "2S", "3S", "4S", "5S")
    state = act(state, "card A", "challenge")  # seat 1 false, eliminated
    assert state.results[-1].eliminated and state.to_move == 2
    state = deal(state, "2S", "", "4S", "5S")
    state = act(state, "card 2", "card 4", "card K", "challenge")  # seats 2, 3, 0; 2 challenges
    assert state.results[-1].loser == 0 and state.results[-1].eliminated
    assert state.to_move == 2  # left of seat 0 is seat 1 (out), so seat 2


def test_b4_first_caller_skips_eliminated_seats_left_of_a_remaining_loser() -> None:
    state = deal(new_game(BluffRules(players=4, max_cards=2)), "2S", "3S", "4S", "5S")
    state = act(state, "card A", "challenge")  # seat 1 loses (1 loss); seat 2 calls next
    state = deal(state, "2S", "3S 3H", "4S", "5S")
    state = act(state, "card 2", "card 3", "card 4", "card A", "challenge")  # seat 1 out
    assert state.eliminated == (1,) and state.to_move == 2
    state = deal(state, "2S", "", "4S", "5S")
    state = act(state, "card 2", "card 3", "card A", "challenge")  # seats 2, 3, 0; 2 challenges
    assert state.results[-1].loser == 0 and not state.results[-1].eliminated
    assert state.to_move == 2  # left of seat 0 is seat 1, which is out


def test_b5_the_view_names_the_seats_in_play_and_who_acts_next() -> None:
    # What the bots play rounds out with: the next seat skips the eliminated (B2, B5).
    state = deal(new_game(BluffRules(players=4, max_cards=1)), "2S", "3S", "4S", "5S")
    state = act(state, "card A", "challenge")  # seat 1 false, eliminated
    state = act(deal(state, "2S", "", "4S", "5S"), "card 2", "card 3")  # seats 2, 3
    v = view(state, 0)
    assert v.in_play == (True, False, True, True) and v.seats_in_play == 3
    assert [v.next_seat(s) for s in range(4)] == [2, 2, 3, 0]
    assert v.next_seat(3) == state.to_move == 0


# --- B5 A turn ---------------------------------------------------------------------------


def test_b5_first_caller_must_call_not_challenge() -> None:
    state = deal(new_game(BluffRules(players=3)), "2S", "3S", "4S")
    assert CHALLENGE not in legal_actions(state)
    assert texts(legal_actions(state)) == ALL_326
    with pytest.raises(IllegalAction):
        apply(state, CHALLENGE)


def test_b5_later_player_calls_stronger_or_challenges() -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), "pair J")
    legal = texts(legal_actions(state))
    assert legal[-1] == "challenge"
    assert legal[0] == "pair Q" and "pair J" not in legal and "card A" not in legal


@pytest.mark.parametrize(("first", "second"), [
    ("pair J", "pair J"), ("pair J", "pair T"), ("pair J", "card A"),
    ("two-pair K 8", "two-pair K 7"), ("three 4", "two-pair A K"),
])
def test_b5_call_not_strictly_stronger_is_illegal(first: str, second: str) -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), first)
    with pytest.raises(IllegalAction):
        apply(state, parse_action(second))


def test_b5_turns_pass_clockwise() -> None:
    state = deal(new_game(BluffRules(players=4, dealer=2)), "2S", "3S", "4S", "5S")
    seats = []
    for call in ("card 2", "card 3", "card 4", "card 5", "card 6"):
        seats.append(state.to_move)
        state = act(state, call)
    assert seats == [3, 0, 1, 2, 3]


def test_b5_challenge_is_of_the_call_just_made() -> None:
    state = deal(new_game(BluffRules(players=3)), "7S", "3S", "4S")
    state = act(state, "card 7", "card 8", "challenge")  # seat 0 challenges seat 2's card 8
    result = state.results[-1]
    assert (result.caller, result.challenger, str(result.call)) == (2, 0, "card 8")
    assert result.call_true is False and result.loser == 2


def test_b5_impossible_call_is_legal_but_a_bad_bet() -> None:
    state = deal(new_game(BluffRules(players=3)), "AS", "AH", "AD")
    assert "four A" in texts(legal_actions(state))
    state = act(state, "four A", "challenge")  # four aces with three cards out
    assert state.results[-1].call_true is False and state.results[-1].loser == 1


def test_b5_only_the_player_to_move_acts() -> None:
    # A record names no actor: the actor is implied, so an action always belongs to to_move.
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), "card 2")
    assert state.to_move == 2
    state = act(state, "challenge")
    assert state.results[-1].challenger == 2


# --- B6 Calls ----------------------------------------------------------------------------


def test_b6_seven_types_weakest_first() -> None:
    kinds = [str(c).split()[0] for c in ALL_CALLS]
    order = list(dict.fromkeys(kinds))
    assert order == ["card", "pair", "two-pair", "three", "full-house", "four",
                     "straight-flush"]


@pytest.mark.parametrize("top", list("56789TJQKA"))
def test_b6_straight_flush_tops_run_from_5_to_a(top: str) -> None:
    assert str(parse_action(f"straight-flush {top} S")) == f"straight-flush {top} S"


@pytest.mark.parametrize("top", ["2", "3", "4"])
def test_b6_straight_flush_top_below_5_does_not_exist(top: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(f"straight-flush {top} S")


def test_b6_wheel_is_five_down_to_ace() -> None:
    assert truth("straight-flush 5 H", "AH", "2H", "3H", "4H", "5H")
    assert not truth("straight-flush 6 H", "AH", "2H", "3H", "4H", "5H")


def test_b6_straight_flush_does_not_wrap_king_ace_two() -> None:
    hands = ("KS", "AS", "2S", "3S", "4S")
    assert not any(truth(c, *hands) for c in ALL_326 if c.startswith("straight-flush"))


def test_b6_straight_flush_top_ace_is_ten_to_ace() -> None:
    assert truth("straight-flush A D", "TD JD", "QD KD", "AD")
    assert not truth("straight-flush A D", "TD JD", "QD KD", "AH")


@pytest.mark.parametrize("text", ["straight 9", "flush S", "straight 9 S", "flush 9 S",
                                  "five A", "high-card A"])
def test_b6_no_plain_straights_or_flushes(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(text)


@pytest.mark.parametrize("text", ["two-pair 8 8", "full-house Q Q"])
def test_b6_two_ranks_must_differ(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_action(text)


# --- B7 Strength -------------------------------------------------------------------------


def stronger(a: str, b: str) -> bool:
    """Whether ``b`` may follow ``a``."""
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), a)
    return b in texts(legal_actions(state))


@pytest.mark.parametrize(("weaker", "higher"), [
    ("card A", "pair 2"), ("pair A", "two-pair 3 2"), ("two-pair A K", "three 2"),
    ("three A", "full-house 2 3"), ("full-house A K", "four 2"),
    ("four A", "straight-flush 5 S"),
])
def test_b7_higher_type_is_stronger(weaker: str, higher: str) -> None:
    assert stronger(weaker, higher) and not stronger(higher, weaker)


def test_b7_ranks_run_two_to_ace() -> None:
    ranks = "23456789TJQKA"
    for kind in ("card", "pair", "three", "four"):
        for lo, hi in zip(ranks, ranks[1:], strict=False):
            assert stronger(f"{kind} {lo}", f"{kind} {hi}")
            assert not stronger(f"{kind} {hi}", f"{kind} {lo}")


def test_b7_two_pairs_by_higher_pair_then_lower() -> None:
    assert stronger("two-pair Q J", "two-pair K 2")
    assert stronger("two-pair K 8", "two-pair K 9")
    assert not stronger("two-pair K 2", "two-pair Q J")
    assert not stronger("two-pair K 9", "two-pair K 8")


def test_b7_full_house_by_three_then_pair() -> None:
    assert stronger("full-house 3 A", "full-house 4 2")
    assert stronger("full-house 3 J", "full-house 3 Q")
    assert not stronger("full-house 4 2", "full-house 3 A")
    assert stronger("full-house 2 A", "full-house A 2")


def test_b7_straight_flush_suit_does_not_count() -> None:
    assert not stronger("straight-flush K S", "straight-flush K H")
    assert not stronger("straight-flush K H", "straight-flush K S")
    assert stronger("straight-flush K C", "straight-flush A S")
    assert stronger("straight-flush K S", "straight-flush A S")


def test_b7_equal_straight_flush_in_a_record_is_an_error_at_that_action() -> None:
    out = replay(3, rnd([["2S"], ["3S"], ["4S"]], "straight-flush K S", "straight-flush K H"))
    assert not out["ok"]
    assert out["error"]["round"] == 0 and out["error"]["index"] == 1
    assert out["error"]["action"] == "straight-flush K H"
    assert out["to_move"] == 2 and out["legal"] == ALL_326[ALL_326.index(
        "straight-flush A S"):] + ["challenge"]


# --- B8 Truth ----------------------------------------------------------------------------


def test_b8_pair_true_with_three_of_rank() -> None:
    assert truth("pair 7", "7S", "7H", "7D")


def test_b8_pair_false_with_three_eights_and_one_seven() -> None:
    assert not truth("pair 7", "8S", "8H", "8D", "7C")


def test_b8_cards_of_all_players_together() -> None:
    assert truth("pair 7", "7S", "2H", "7D")  # one 7 from seat 0, one from seat 2
    assert truth("card 2", "", "3S", "2C")


def test_b8_one_card_needs_its_rank() -> None:
    assert truth("card A", "AS") and not truth("card A", "KS", "QS")


def test_b8_two_pairs_need_two_of_each_rank() -> None:
    assert truth("two-pair K 8", "KS 8H", "KD 8C")
    assert truth("two-pair K 8", "KS KH KD", "8C 8H")  # more cards than claimed
    assert not truth("two-pair K 8", "KS KH KD", "8C")
    assert not truth("two-pair K 8", "KS KH KD KC", "2S")  # four K are not two pairs


def test_b8_three_of_a_kind() -> None:
    assert truth("three 4", "4S 4H", "4D") and truth("three 4", "4S 4H 4D 4C")
    assert not truth("three 4", "4S 4H", "5D 5C 5H")


def test_b8_full_house_three_then_pair() -> None:
    assert truth("full-house 3 Q", "3S 3H QS", "3D QD")
    assert truth("full-house 3 Q", "3S 3H 3C", "QS QD QH")
    assert not truth("full-house 3 Q", "3S 3H QS", "QD QC")  # two 3s, three Qs
    assert not truth("full-house Q 3", "3S 3H 3D", "QD QC")  # the three is of Q
    assert not truth("full-house 3 Q", "3S 3H 3D 3C", "QS")


def test_b8_four_of_a_kind_needs_all_four() -> None:
    assert truth("four 2", "2S 2H", "2D 2C")
    assert not truth("four 2", "2S 2H", "2D AS")


def test_b8_straight_flush_needs_one_suit() -> None:
    assert truth("straight-flush 9 C", "5C 6C 7C", "8C 9C")
    assert not truth("straight-flush 9 C", "5C 6C 7C", "8C 9H")
    assert not truth("straight-flush 9 H", "5C 6C 7C", "8C 9C")


def test_b8_stronger_different_combination_does_not_make_a_call_true() -> None:
    assert not truth("card 7", "8S 8H 8D 8C")
    assert not truth("straight-flush 6 S", "AS KS QS JS TS")


# --- B9 Challenge ------------------------------------------------------------------------


def test_b9_false_call_its_caller_loses() -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), "card A", "challenge")
    r = state.results[-1]
    assert (r.call_true, r.caller, r.challenger, r.loser) == (False, 1, 2, 1)


def test_b9_true_call_the_challenger_loses() -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), "card 4", "challenge")
    r = state.results[-1]
    assert (r.call_true, r.caller, r.challenger, r.loser) == (True, 1, 2, 2)


def test_b9_all_hands_are_revealed_to_everyone() -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), "card 4")
    step = apply(state, CHALLENGE)
    challenged = [e for e in step.events if isinstance(e, Challenged)]
    assert len(challenged) == 1 and challenged[0].audience is None
    assert [[str(c) for c in h] for h in challenged[0].hands] == [["2S"], ["3S"], ["4S"]]


# --- B10 No stronger call ----------------------------------------------------------------


@pytest.mark.parametrize("suit", "SHDC♠")
def test_b10_after_straight_flush_ace_the_next_must_challenge(suit: str) -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"),
                f"straight-flush A {suit}")
    assert legal_actions(state) == (CHALLENGE,)
    for call in ("straight-flush A S", "straight-flush A C", "four A", "card 2"):
        with pytest.raises(IllegalAction):
            apply(state, parse_action(call))
    assert act(state, "challenge").results[-1].challenger == 2


def test_b10_straight_flush_king_may_still_be_raised() -> None:
    state = act(deal(new_game(BluffRules(players=3)), "2S", "3S", "4S"), "straight-flush K D")
    assert texts(legal_actions(state)) == ["straight-flush A S", "straight-flush A H",
                                           "straight-flush A D", "straight-flush A C",
                                           "challenge"]


# --- B11 Loss ----------------------------------------------------------------------------


def test_b11_loss_adds_one_to_the_loser_only() -> None:
    state = deal(new_game(BluffRules(players=4)), "2S", "3S", "4S", "5S")
    state = act(state, "card A", "challenge")
    assert state.losses == (0, 1, 0, 0)
    state = act(deal(state, "2S", "3S 3H", "4S", "5S"), "card 3", "challenge")  # seat 2 calls
    assert state.losses == (0, 1, 0, 1)  # seat 3 challenged a true call
    assert [state.hand_size(s) for s in range(4)] == [1, 2, 1, 2]


def test_b11_eliminated_loser_leaves_the_game() -> None:
    state = act(deal(new_game(BluffRules(players=3, max_cards=1)), "2S", "3S", "4S"),
                "card A", "challenge")
    assert state.eliminated == (1,) and state.active == (True, False, True)
    assert not state.is_over


# --- B12 End -----------------------------------------------------------------------------


def test_b12_last_player_remaining_wins() -> None:
    state = deal(new_game(BluffRules(players=2, max_cards=1)), "2S", "3S")
    step = apply(act(state, "card A"), CHALLENGE)
    assert step.state.is_over and step.state.to_move is None
    assert step.state.standings == ((0,), (1,))
    assert any(isinstance(e, GameOver) for e in step.events)
    assert legal_actions(step.state) == ()


def test_b12_standings_winner_then_last_eliminated_first() -> None:
    state = deal(new_game(BluffRules(players=4, max_cards=1)), "2S", "3S", "4S", "5S")
    state = act(state, "card A", "challenge")  # seat 1 out
    state = act(deal(state, "2S", "", "4S", "5S"), "card A", "challenge")  # seat 2 out
    state = act(deal(state, "2S", "", "", "5S"), "card A", "challenge")  # seat 3 calls, out
    assert state.standings == ((0,), (3,), (2,), (1,))
    out = replay(4, rnd([["2S"], ["3S"], ["4S"], ["5S"]], "card A", "challenge"),
                 rnd([["2S"], [], ["4S"], ["5S"]], "card A", "challenge"),
                 rnd([["2S"], [], [], ["5S"]], "card A", "challenge"), max_cards=1)
    assert out["finished"] and out["standings"] == [[0], [3], [2], [1]]
    assert out["to_move"] is None and out["legal"] is None


def test_b12_nothing_follows_the_end() -> None:
    state = act(deal(new_game(BluffRules(players=2, max_cards=1)), "2S", "3S"),
                "card A", "challenge")
    with pytest.raises(IllegalAction):
        apply(state, parse_action("card 2"))
    with pytest.raises(InvalidDeal):
        deal(state, "2S", "")


def test_b3_each_seat_is_told_only_its_own_cards() -> None:
    from usotsuki.core.events import events_for

    state = new_game(BluffRules(players=3))
    step = start_round(state, [parse_cards([c]) for c in ("2S", "3S", "4S")])
    for seat in range(3):
        private = [e.to_json() for e in events_for(step.events, seat)
                   if e.to_json()["type"] == "hand_dealt"]
        assert private == [{"type": "hand_dealt", "seat": seat,
                            "cards": [["2S", "3S", "4S"][seat]]}]
    public = [e.to_json() for e in events_for(step.events, None)]
    assert all("cards" not in e for e in public)
    assert public[0]["first_caller"] == 1 and public[0]["hand_sizes"] == [1, 1, 1]
