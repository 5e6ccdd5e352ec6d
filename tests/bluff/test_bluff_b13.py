"""RULES.md B13, option ``ranks``: Bluff with a short deck, one test per sentence.

The expected call lists come from :mod:`bluff_support`'s independent reading of B6/B7,
filtered by B13's own words; the counts are golden facts (perft-style).
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from bluff_support import ALL_326, RANKS, part5, record, rnd, straight_cards, strength
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from usotsuki.bluff import (
    ALL_CALLS,
    CHALLENGE,
    BluffRules,
    BluffState,
    apply,
    calls_for,
    is_true,
    legal_actions,
    new_game,
    parse_action,
    start_round,
    view,
)
from usotsuki.bluff.deal import deal_hands, deck
from usotsuki.bluff.record import replay, replay_report, write_record
from usotsuki.cards import DECK, parse_cards
from usotsuki.cli.main import app
from usotsuki.core.errors import IllegalAction, InvalidDeal, InvalidRules
from usotsuki.odds import all_call_probabilities, call_probabilities, call_probability

CONFORMANCE_B13 = Path(__file__).resolve().parents[1] / "conformance" / "b13"

# Golden counts per ``ranks``: (calls, strength levels). B6 counts 13 + 13 + 78 + 13 +
# 156 + 13 + 10 levels for the full deck; B13 gives 77 calls, 71 levels for 6 ranks.
COUNTS = {2: (11, 11), 3: (21, 21), 4: (34, 34), 5: (54, 51), 6: (77, 71), 7: (103, 94),
          8: (132, 120), 9: (164, 149), 10: (199, 181), 11: (237, 216), 12: (278, 254),
          13: (326, 296)}


def deck_ranks(ranks: int) -> str:
    """B13: the ``ranks`` highest ranks, as letters."""
    return RANKS[13 - ranks:]


def oracle_calls(ranks: int) -> list[str]:
    """B13 read on its own: a call exists when every rank it names is in the deck; a
    straight flush when its five cards' ranks are (independent of usotsuki.bluff)."""
    letters = set(deck_ranks(ranks))
    out = []
    for call in ALL_326:
        word, *args = call.split()
        if word == "straight-flush":
            named = {c[0] for c in straight_cards(args[0], args[1])}
        else:
            named = set(args)
        if named <= letters:
            out.append(call)
    return out


def texts(actions: Any) -> list[str]:
    return [str(a) for a in actions]


def dealt(state: BluffState, hands: str) -> BluffState:
    """Deal ``hands`` (seats separated by ``|``) to ``state``."""
    return start_round(state, [parse_cards(h.split()) for h in hands.split("|")]).state


def playing(ranks: int, players: int, hands: str, *calls: str,
            max_cards: int = 1) -> BluffState:
    state = dealt(new_game(BluffRules(players=players, max_cards=max_cards, ranks=ranks)),
                  hands)
    for call in calls:
        state = apply(state, parse_action(call)).state
    return state


# --- "Option ranks (default 13; an integer from 2 to 13)" -------------------------------


def test_b13_default_is_the_full_deck() -> None:
    rules = BluffRules(players=3)
    assert rules.ranks == 13 and rules.deck_size == 52
    assert calls_for(13).calls == ALL_CALLS


@pytest.mark.parametrize("ranks", [0, 1, 14, -6, True, "6", 6.0, None])
def test_b13_ranks_outside_2_to_13_or_not_an_integer_is_refused(ranks: Any) -> None:
    with pytest.raises(InvalidRules, match="ranks"):
        BluffRules(players=2, max_cards=1, ranks=ranks)
    with pytest.raises(ValueError, match="ranks"):
        calls_for(ranks)


# --- "A short deck: the four suits of the ranks highest ranks only" -----------------------


@pytest.mark.parametrize("ranks", range(2, 14))
def test_b13_the_deck_is_the_four_suits_of_the_highest_ranks(ranks: int) -> None:
    cards = [str(c) for c in deck(ranks)]
    assert cards == [r + s for r in deck_ranks(ranks) for s in "SHDC"]
    assert len(cards) == BluffRules(players=2, max_cards=1, ranks=ranks).deck_size


def test_b13_ranks_6_is_the_24_card_deck_9_to_a() -> None:
    assert " ".join(str(c) for c in deck(6)) == (
        "9S 9H 9D 9C TS TH TD TC JS JH JD JC QS QH QD QC KS KH KD KC AS AH AD AC")


@pytest.mark.parametrize("seed", range(20))
def test_b13_deals_come_from_the_short_deck_only(seed: int) -> None:
    rng = random.Random(seed)
    ranks = rng.randint(2, 13)
    players = rng.randint(2, min(8, 4 * ranks))
    rules = BluffRules(players=players, max_cards=4 * ranks // players, ranks=ranks)
    state = new_game(rules)
    hands = deal_hands(state, rng)
    cards = [c for h in hands for c in h]
    assert len(set(cards)) == len(cards) == players
    assert all(c in deck(ranks) for c in cards)


def test_b13_full_deck_deals_are_unchanged() -> None:
    """A seeded full-deck game deals as before the option existed (all 52 sampled)."""
    state = new_game(BluffRules(players=4))
    assert deal_hands(state, random.Random(3)) == tuple(
        tuple(sorted(random.Random(3).sample(DECK, 4)[i:i + 1])) for i in range(4))


# --- "Only the calls whose every named rank is in the deck exist" -------------------------


@pytest.mark.parametrize("ranks", range(2, 14))
def test_b13_calls_of_a_deck_are_those_naming_only_its_ranks(ranks: int) -> None:
    assert texts(calls_for(ranks).calls) == oracle_calls(ranks)


@pytest.mark.parametrize("ranks", range(2, 14))
def test_b13_golden_counts_of_calls_and_strength_levels(ranks: int) -> None:
    calls, levels = COUNTS[ranks]
    assert len(calls_for(ranks)) == calls
    assert calls_for(ranks).levels == levels
    assert len({strength(c) for c in oracle_calls(ranks)}) == levels  # the oracle agrees


def test_b13_ranks_6_has_77_calls_in_71_levels_by_type() -> None:
    calls = calls_for(6).calls
    by_type = [sum(c.kind == kind for c in calls) for kind in sorted({c.kind for c in calls})]
    assert by_type == [6, 6, 15, 6, 30, 6, 8]
    assert len(calls) == 77 and calls_for(6).levels == 71


@pytest.mark.parametrize(("ranks", "call"), [
    (6, "pair 7"), (6, "two-pair A 8"), (6, "full-house 8 A"), (6, "full-house A 8"),
    (6, "card 2"), (12, "card 2"), (6, "straight-flush Q S"), (2, "card Q"),
])
def test_b13_a_call_naming_a_rank_outside_the_deck_is_refused(ranks: int, call: str) -> None:
    state = playing(ranks, 2, "AS|AH")
    with pytest.raises(IllegalAction, match="B13"):
        apply(state, parse_action(call))
    assert call not in texts(legal_actions(state))  # absent from legal


def test_b13_refused_like_any_unknown_call_and_the_state_is_unchanged() -> None:
    state = playing(6, 3, "9S|AH|KD", "card 9")
    with pytest.raises(IllegalAction):
        apply(state, parse_action("pair 7"))
    assert state.calls == ((1, parse_action("card 9")),) and state.to_move == 2
    assert apply(state, parse_action("pair 9")).state.to_move == 0


# --- "A straight flush exists when its five ranks are all in the deck: tops from the deck's
#      fifth lowest rank to A, and 5 (the A-low sequence) only with all 13 ranks" ---------


@pytest.mark.parametrize("ranks", range(5, 14))
def test_b13_straight_flush_tops_run_from_the_fifth_lowest_rank_to_a(ranks: int) -> None:
    tops = sorted({c.ranks[0] for c in calls_for(ranks).calls if c.kind.word ==
                   "straight-flush"})
    fifth_lowest = RANKS.index(deck_ranks(ranks)[4])
    expected = list(range(fifth_lowest, 13))
    if ranks == 13:
        expected = [RANKS.index("5"), *expected]
    assert tops == sorted(set(expected))


@pytest.mark.parametrize("ranks", range(5, 13))
def test_b13_a_low_straight_flush_only_with_all_13_ranks(ranks: int) -> None:
    state = playing(ranks, 2, "AS|AH")
    with pytest.raises(IllegalAction, match="B13"):
        apply(state, parse_action("straight-flush 5 S"))
    assert "straight-flush 5 S" in texts(legal_actions(playing(13, 2, "AS|AH")))


@pytest.mark.parametrize("ranks", [2, 3, 4])
def test_b13_no_straight_flushes_with_fewer_than_5_ranks(ranks: int) -> None:
    assert not any(c.kind.word == "straight-flush" for c in calls_for(ranks).calls)
    with pytest.raises(IllegalAction):
        apply(playing(ranks, 2, "AS|AH"), parse_action("straight-flush A S"))


def test_b13_ranks_5_has_only_the_royal_straight_flushes() -> None:
    flushes = [str(c) for c in calls_for(5).calls if c.suit is not None]
    assert flushes == ["straight-flush A S", "straight-flush A H", "straight-flush A D",
                       "straight-flush A C"]


# --- "B7 orders the calls that exist" -----------------------------------------------------


@pytest.mark.parametrize("ranks", range(2, 14))
def test_b13_b7_orders_the_calls_that_exist(ranks: int) -> None:
    levels = [strength(str(c)) for c in calls_for(ranks).calls]
    assert levels == sorted(levels)
    state = playing(ranks, 2, "AS|AH", "card A")
    stronger = texts(legal_actions(state))
    assert stronger == [c for c in oracle_calls(ranks)
                        if strength(c) > strength("card A")] + ["challenge"]


def test_b13_equal_straight_flushes_still_may_not_follow_each_other() -> None:
    state = playing(6, 2, "AS|AH", "straight-flush K S")
    with pytest.raises(IllegalAction, match="as strong as"):
        apply(state, parse_action("straight-flush K H"))


def test_b13_first_caller_and_between_rounds_get_every_call_of_the_deck() -> None:
    state = new_game(BluffRules(players=2, max_cards=2, ranks=6))
    assert texts(legal_actions(state)) == oracle_calls(6)  # Part 5 between rounds
    state = playing(6, 2, "9S|AH", max_cards=2)
    assert texts(legal_actions(state)) == oracle_calls(6)
    after = apply(apply(state, parse_action("card A")).state, CHALLENGE).state
    assert after.needs_deal and texts(legal_actions(after)) == oracle_calls(6)


# --- "B10 applies to the strongest call that exists" -------------------------------------


@pytest.mark.parametrize(("ranks", "top"), [
    (13, "straight-flush A C"), (6, "straight-flush A H"), (5, "straight-flush A S"),
    (4, "four A"), (3, "four A"), (2, "four A"),
])
def test_b13_b10_after_the_strongest_call_of_the_deck_only_challenge(ranks: int,
                                                                     top: str) -> None:
    state = playing(ranks, 2, "AS|AH", top)
    assert legal_actions(state) == (CHALLENGE,)
    with pytest.raises(IllegalAction, match="B10"):
        apply(state, parse_action("straight-flush A D" if ranks >= 5 else "four A"))
    assert apply(state, CHALLENGE).state.results[-1].challenger == 0


def test_b13_the_full_house_below_four_aces_is_not_the_end_with_four_ranks() -> None:
    state = playing(4, 2, "AS|AH", "full-house A K")
    assert texts(legal_actions(state)) == ["four J", "four Q", "four K", "four A", "challenge"]


# --- "B2's limit becomes players * max_cards <= 4 * ranks" --------------------------------


@pytest.mark.parametrize(("players", "max_cards", "ranks", "ok"), [
    (3, 8, 6, True), (3, 9, 6, False), (4, 6, 6, True), (4, 7, 6, False),
    (8, 1, 2, True), (3, 3, 2, False), (2, 4, 2, True), (8, 6, 12, True), (8, 7, 13, False),
    (2, 26, 13, True), (2, 27, 13, False),
])
def test_b13_b2_limit_uses_the_short_deck(players: int, max_cards: int, ranks: int,
                                          ok: bool) -> None:
    if ok:
        assert BluffRules(players=players, max_cards=max_cards, ranks=ranks).ranks == ranks
    else:
        with pytest.raises(InvalidRules, match=f"more than the {4 * ranks} in the deck"):
            BluffRules(players=players, max_cards=max_cards, ranks=ranks)


# --- "A hand holding a card outside the deck is a bad deal" -----------------------------


@pytest.mark.parametrize("hands", ["8S|AH", "AS|2C", "TS|QS"])
def test_b13_a_card_outside_the_deck_is_a_bad_deal(hands: str) -> None:
    ranks = 6 if "T" not in hands else 3  # 3: Q K A only, so T is out
    state = new_game(BluffRules(players=2, max_cards=1, ranks=ranks))
    with pytest.raises(InvalidDeal, match="not in the deck"):
        start_round(state, [parse_cards(h.split()) for h in hands.split("|")])
    assert state.needs_deal and state.hands is None


def test_b13_a_bad_deal_in_a_record_is_located_at_its_round() -> None:
    report = replay_report(record(2, [rnd([["AS"], ["KS"]], "card A", "challenge"),
                                      rnd([["AS", "8D"], ["KS"]])], ranks=6))
    assert report["ok"] is False
    assert report["error"]["round"] == 1 and report["error"]["index"] is None
    assert "not in the deck" in report["error"]["message"]
    assert len(report["rounds"]) == 1


# --- Truth (B8) and the report over a short deck ------------------------------------------


def test_b13_a_round_plays_to_its_challenge_and_reports_part5() -> None:
    rec = record(3, [rnd([["9S"], ["9H"], ["AD"]], "card 9", "pair 9", "three 9", "challenge")],
                 ranks=6, max_cards=2)
    report = part5(replay_report(rec))
    assert report["ok"] is True and report["finished"] is False
    # seat 1 opens (B4); two 9s are no three (B8): the caller, seat 0, loses (B9)
    assert report["rounds"] == [{"caller": 0, "challenger": 1, "call": "three 9",
                                 "call_true": False, "loser": 0, "eliminated": False}]
    assert report["to_move"] == 1 and report["legal"] == oracle_calls(6)


# --- Records (Part 4): ranks read, written only when not the default ----------------------


def test_b13_records_carry_ranks_only_for_a_short_deck() -> None:
    short = playing(6, 2, "9S|AH", "card A", max_cards=2)
    written = write_record(short)
    assert written["rules"] == {"max_cards": 2, "dealer": 0, "ranks": 6}
    assert replay(written).state == short
    full = playing(13, 2, "9S|AH", "card A", max_cards=2)
    assert write_record(full)["rules"] == {"max_cards": 2, "dealer": 0}  # as before B13


def test_b13_an_explicit_ranks_13_is_the_default() -> None:
    rounds = [rnd([["2S"], ["AH"]], "card 2")]
    assert replay_report(record(2, rounds, ranks=13)) == replay_report(record(2, rounds))


@pytest.mark.parametrize("value", [1, 14, 0, "6", True, 6.5, None, [6]])
def test_b13_bad_ranks_in_a_record_is_an_error_outside_any_round(value: Any) -> None:
    report = replay_report(record(2, [rnd([["AS"], ["AH"]])], ranks=value))
    assert report["ok"] is False and report["finished"] is False
    assert report["error"]["round"] is None and report["error"]["index"] is None
    assert "ranks" in report["error"]["message"]


def test_b13_record_over_the_short_deck_limit_is_refused() -> None:
    report = replay_report(record(4, [], ranks=2, max_cards=3))
    assert report["ok"] is False and "B2" in report["error"]["message"]
    assert report["error"]["round"] is None


@pytest.mark.parametrize("path", sorted(p for p in CONFORMANCE_B13.glob("*.json")
                                        if not p.name.endswith(".expected.json")),
                         ids=lambda p: p.stem)
def test_b13_conformance_records_through_the_command_line(path: Path) -> None:
    want = json.loads(path.with_name(path.stem + ".expected.json").read_text("utf-8"))
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    got = json.loads(result.stdout)
    assert result.exit_code == (0 if want["ok"] else 1)
    assert got["ok"] is want["ok"]
    if want["error"] is not None:
        record_in = json.loads(path.read_text("utf-8"))
        error = want["error"]
        action = None if error["index"] is None else \
            record_in["rounds"][error["round"]]["actions"][error["index"]]
        assert (got["error"]["round"], got["error"]["index"], got["error"]["action"]) == (
            error["round"], error["index"], action)
        return
    for key in ("finished", "standings", "to_move", "legal"):
        assert got[key] == want[key], key


def test_b13_conformance_copy_matches_the_rule_book_sample() -> None:
    assert len(list(CONFORMANCE_B13.glob("*.expected.json"))) >= 3


# --- Views ------------------------------------------------------------------------------


def test_b13_views_expose_the_deck() -> None:
    state = playing(6, 2, "9S|AH")
    v = view(state, 0)
    assert v.ranks == 6 and v.deck_size == 24 and v.to_json()["ranks"] == 6
    assert view(playing(13, 2, "9S|AH"), None).to_json()["ranks"] == 13


# --- Hypothesis: random legal play on small decks ----------------------------------------


@st.composite
def short_games(draw: st.DrawFn) -> tuple[BluffRules, int]:
    ranks = draw(st.integers(2, 13))
    players = draw(st.integers(2, min(8, 4 * ranks)))
    max_cards = draw(st.integers(1, min(4, 4 * ranks // players)))
    dealer = draw(st.integers(0, players - 1))
    return BluffRules(players=players, max_cards=max_cards, dealer=dealer, ranks=ranks), \
        draw(st.integers(0, 2**32 - 1))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(short_games())
def test_b13_property_random_play_stays_in_the_deck_and_conserves_cards(
        setup: tuple[BluffRules, int]) -> None:
    rules, seed = setup
    rng = random.Random(seed)
    exists = set(texts(calls_for(rules.ranks).calls))
    in_deck = set(deck(rules.ranks))
    state = new_game(rules)
    for _ in range(5000):
        if state.is_over:
            break
        if state.needs_deal:
            state = start_round(state, deal_hands(state, rng)).state
            assert state.hands is not None
            cards = [c for hand in state.hands for c in hand]
            assert len(cards) == len(set(cards)) == sum(state.hand_size(s)
                                                        for s in range(rules.players))
            assert set(cards) <= in_deck
            continue
        legal = legal_actions(state)
        assert set(texts(legal)) - {"challenge"} <= exists
        action = CHALLENGE if legal[-1] == CHALLENGE and rng.random() < 0.3 else \
            rng.choice(legal[:5])
        state = apply(state, action).state
    assert state.is_over
    for result in state.results:
        assert all(str(call) in exists for _, call in result.calls)
        assert result.call_true == is_true(result.call, result.hands)
    assert part5(replay_report(write_record(state)))["standings"] == [
        list(p) for p in state.standings or ()]


# --- Odds over the short deck, against brute-force enumeration -----------------------------


def brute_force(hand: tuple[Any, ...], unseen: int, ranks: int) -> list[float]:
    pool = [c for c in deck(ranks) if c not in hand]
    true = [0] * len(ALL_CALLS)
    total = 0
    for others in itertools.combinations(pool, unseen):
        total += 1
        for i, call in enumerate(ALL_CALLS):
            true[i] += is_true(call, (hand, others))
    return [t / total for t in true]


@pytest.mark.parametrize(("ranks", "hand", "unseen"), [
    (2, "AS", 1), (2, "KS KH", 3), (3, "QS", 2), (4, "AS AH", 2), (5, "TS JS", 3),
    (6, "AS", 3), (6, "9S TS JS QS", 2), (6, "", 2), (13, "5C", 2),
])
def test_b13_odds_agree_with_enumeration_over_the_short_deck(ranks: int, hand: str,
                                                             unseen: int) -> None:
    cards = tuple(parse_cards(hand.split()))
    exact = brute_force(cards, unseen, ranks)
    assert all_call_probabilities(cards, unseen, ranks) == pytest.approx(exact, abs=1e-12)
    fast = call_probabilities(cards, unseen, ranks)
    for i, call in enumerate(ALL_CALLS):
        assert call_probability(call, cards, unseen, ranks) == pytest.approx(fast[i],
                                                                             abs=1e-12)


def test_b13_odds_of_calls_outside_the_deck_are_zero() -> None:
    probs = call_probabilities(parse_cards(["AS"]), 5, 6)
    outside = [i for i, c in enumerate(ALL_CALLS) if c not in calls_for(6)]
    assert len(outside) == 326 - 77 and all(probs[i] == 0.0 for i in outside)
    # with the whole 24-card deck in play a pair of 9s is certain, a card 2 impossible
    assert call_probability(parse_action("pair 9"), parse_cards(["AS"]), 23, 6) == 1.0
