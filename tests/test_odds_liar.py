"""Exact Liar Game odds (usotsuki.odds_liar) against brute-force enumeration on small cases
and Monte Carlo over whole deals consistent with a view on large ones."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from usotsuki.bots.liar.search import determinize
from usotsuki.cards import DECK, parse_card
from usotsuki.liar import LiarRules, LiarState, new_game, parse_action, push, view
from usotsuki.liar.actions import CARD_RATE, parse_rate
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import (
    able_before_play,
    able_probability,
    all_truth_probabilities,
    hands_with,
    hypergeometric_at_least,
    play_truth_probability,
    truth_probability,
    unseen_counts,
)


def brute_truth(count: int, pool: list[int], hand: int, known: list[int], rate: int) -> float:
    """Enumerate every unseen part of the hand, then every played subset of the hand."""
    hits = total = 0
    for drawn in combinations(range(len(pool)), hand - len(known)):
        full = known + [pool[i] for i in drawn]
        for played in combinations(range(len(full)), count):
            total += 1
            hits += all(full[i] == rate for i in played)
    return hits / total


@given(st.data())
def test_truth_probability_matches_enumeration(data: st.DataObject) -> None:
    unseen = data.draw(st.integers(2, 9))
    rate_unseen = data.draw(st.integers(0, min(4, unseen)))
    known = data.draw(st.integers(0, 3))
    known_of_rate = data.draw(st.integers(0, known))
    hand = data.draw(st.integers(max(1, known), known + unseen))
    count = data.draw(st.integers(1, min(hand, 3)))
    pool = [0] * rate_unseen + [1] * (unseen - rate_unseen)
    known_rates = [0] * known_of_rate + [1] * (known - known_of_rate)
    exact = play_truth_probability(count, rate_unseen, unseen, hand, known, known_of_rate)
    assert exact == pytest.approx(brute_truth(count, pool, hand, known_rates, 0), abs=1e-12)


def test_unknown_hand_reduces_to_the_hypergeometric() -> None:
    # nothing known of the player's hand: C(k, c) / C(u, c) whatever the hand's size
    for hand in (2, 5, 9, 20):
        assert play_truth_probability(2, 3, 40, hand) == pytest.approx(comb(3, 2) / comb(40, 2))


def test_impossible_plays_are_refused() -> None:
    with pytest.raises(ValueError):
        play_truth_probability(3, 1, 10, 2)


def start(*hands: str, hand_size: int, multi: bool = False) -> LiarState:
    """A game from written hands; the stock is every other card in deck order."""
    dealt = [tuple(parse_card(t) for t in h.split()) for h in hands]
    used = {c for hand in dealt for c in hand}
    rules = LiarRules(players=len(hands), hand_size=hand_size, multi=multi)
    return new_game(rules, dealt, [c for c in DECK if c not in used], 7)


def test_view_odds_match_enumeration_of_the_other_hand() -> None:
    """2 players, 3 cards each: enumerate every hand seat 0 could have held (from seat 1's
    unseen cards) and every card it could have played."""
    state = start("3S 9C KD", "9S 9H 4D", hand_size=3)
    state = push(state, parse_action("play 3S as 9"))  # seat 0 leads, declares 9
    v = view(state, 1)
    unseen = [c for c in DECK if c not in v.hand]
    hits = total = 0
    for before in combinations(unseen, 3):
        for card in before:
            total += 1
            hits += CARD_RATE[card] == parse_rate("9")
    assert truth_probability(v) == pytest.approx(hits / total)
    assert truth_probability(v) == pytest.approx(2 / 49)  # two 9s unseen among 49
    # could seat 0 have played a 9 at all: held at least one of the two unseen 9s
    assert able_before_play(v) == pytest.approx(1 - comb(47, 3) / comb(49, 3))


def test_no_odds_without_a_current_play_or_on_ones_own() -> None:
    state = start("3S 9C KD", "9S 9H 4D", hand_size=3)
    assert truth_probability(view(state, 0)) is None
    state = push(state, parse_action("play 3S as 9"))
    assert truth_probability(view(state, 0)) is None
    assert able_before_play(view(state, 0)) is None


def test_odds_are_zero_when_the_seat_holds_every_card_of_the_rate() -> None:
    state = start("3S 9C KD 5D", "9S 9H 9D 4D", hand_size=4)
    state = push(state, parse_action("play 3S as 9"))
    v = view(state, 1)
    assert truth_probability(v) == pytest.approx(1 / 48)  # only 9C is unseen
    state = start("3S 4C KD 5D", "9S 9H 9D 9C", hand_size=4)
    state = push(state, parse_action("play 3S as 9"))
    assert truth_probability(view(state, 1)) == 0.0
    assert all_truth_probabilities(view(state, 1), 1, 0)[6] == 0.0


@pytest.mark.parametrize("options", [{}, {"multi": True}])
def test_view_odds_agree_with_monte_carlo_over_consistent_deals(options: dict[str, bool]
                                                                 ) -> None:
    """Large case: real 4-player games some way in, with shown cards in certain places
    (big hands, so draws reach the flushed blocks); deal the unseen cards uniformly to
    every unseen place, the tracked cards to their places (``determinize``), many times,
    and count truthful current plays."""
    rules = LiarRules(players=4, hand_size=12, **options)
    rng = random.Random(11)
    from usotsuki.liar import random_action
    from usotsuki.liar.match import deal

    checked = 0
    for seed in range(400):
        hands, stock = deal(rules, random.Random(seed))
        state = new_game(rules, hands, stock, seed)
        for _ in range(rng.randrange(5, 80)):
            if state.to_move is None:
                break
            state = push(state, random_action(state, rng))
        if state.to_move is None or not state.field or state.field[-1].seat == state.to_move:
            continue
        v = view(state, state.to_move)
        if not v.known_places or (checked == 1 and not v.known_before_play):
            continue  # the cases this test is for: tracked places, once a tracked hand
        exact = truth_probability(v)
        assert exact is not None
        samples = 3000
        hits = 0
        current = v.field[-1]
        for _ in range(samples):
            det = determinize(v, rng, None)
            hits += all(CARD_RATE[c] == current.rate for c in det.field[-1].cards)
        sigma = max((exact * (1 - exact) / samples) ** 0.5, 1 / samples)
        assert abs(hits / samples - exact) < 5 * sigma
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def brute_view_truth(v: LiarView) -> float:
    """Enumerate every hand the current player could have held before the play (its
    tracked cards plus any cards of the pool the seat cannot place) and every played
    subset of it."""
    current = v.field[-1]
    assert v.hand is not None
    known = list(v.known_before_play)
    own = {c for p in v.field if p.cards is not None for c in p.cards}  # its own plays
    placed = set(v.hand) | {c for c, _ in (*v.known_places, *v.own_places)} | set(known) | own
    pool = [c for c in DECK if c not in placed]
    size = v.hand_sizes[current.seat] + current.count
    hits = total = 0
    for drawn in combinations(pool, size - len(known)):
        for played in combinations(known + list(drawn), current.count):
            total += 1
            hits += all(CARD_RATE[c] == current.rate for c in played)
    return hits / total


def test_l8_three_sevens_under_the_stock_make_a_seven_unlikely() -> None:
    """7S 7H 7D shown in a truthful doubt and still under the stock: seat 0's next
    "play 1 card as 7" can only be truthful with the one 7 left, 7C."""
    state = start("3S 7S 7H 7D 9C", "4S 5S 6S 8S TS", "4H 5H 6H 8H TH", hand_size=5,
                  multi=True)
    state = push(state, parse_action("play 7S 7H 7D as 7"))
    state = push(state, parse_action("doubt"))  # truthful: seat 1 draws 3, seat 0 leads
    state = push(state, parse_action("play 9C as 7"))
    v = view(state, 1)
    assert [(str(c), p) for c, p in v.known_places] == [("7S", "stock"), ("7H", "stock"),
                                                         ("7D", "stock")]
    blind = replace(v, known_places=())
    exact = truth_probability(v)
    assert exact == pytest.approx(1 / (52 - 8 - 3))  # only 7C, among 41 placeable cards
    assert truth_probability(blind) == pytest.approx(4 / (52 - 8))  # four 7s among 44
    assert exact == pytest.approx(brute_view_truth(v))
    assert exact is not None and exact < 0.3 * (truth_probability(blind) or 1)
    assert able_before_play(v) == pytest.approx(1 - comb(40, 2) / comb(41, 2))
    from usotsuki.bots.liar.belief import truth_belief

    # hard's belief model leaves out cards certainly elsewhere (bots.liar.belief.truth_belief)
    assert truth_belief(v) == truth_belief(blind)


DEAL_ALL = ("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
            "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C")


def test_l9_a_card_certainly_held_before_the_play_may_be_the_one_played() -> None:
    """Seat 1 drew back the shown 9D (deal_all: no stock, the whole field returns): its
    next play as 9 is truthful if it is the 9D or another 9 of its hand."""
    state = new_game(LiarRules(players=2, deal_all=True),
                     [tuple(parse_card(t) for t in h.split()) for h in DEAL_ALL], [], 7)
    for text in ("play 3S as 3", "play 9D as 5", "doubt", "play 4S as 4", "play 2D as 9"):
        state = push(state, parse_action(text))
    v = view(state, 0)
    assert [(str(c), p) for c, p in v.known_places] == []  # 9D: played or still held
    assert [str(c) for c in v.known_before_play] == ["9D"]
    exact = truth_probability(v)
    assert exact == pytest.approx(brute_view_truth(v))
    # blind to 9D and to its own 4S, seat 0 would place neither
    blind = replace(v, known_before_play=(), field=tuple(replace(p, cards=None) for p in v.field))
    assert exact is not None and exact > (truth_probability(blind) or 1)  # 2/27 > 2/28
    assert able_before_play(v) == 1.0  # it certainly held a 9
    # the pre-play hand: 9D and the 26 cards seat 0 cannot place (one 9: 9C); seat 0
    # places its own 4S on the field
    pool, size = 26, 26
    expect = sum(comb(1, x) * comb(pool - 1, size - x) * (1 + x) for x in range(2))
    assert exact == pytest.approx(expect / (comb(pool, size) * (size + 1)))


def test_able_probability_matches_enumeration() -> None:
    state = start("3S 9C KD", "9S 4H 4D", hand_size=3)
    v = view(state, 1)
    unseen = [c for c in DECK if c not in v.hand]
    for rate, count in ((6, 1), (1, 1), (1, 2), (6, 2)):  # 9s and 4s
        hits = sum(sum(CARD_RATE[c] == rate for c in hand) >= count
                   for hand in combinations(unseen, 3))
        assert able_probability(count, rate, v, 0) == pytest.approx(hits / comb(49, 3))
    assert unseen_counts(v)[1] == 2  # two 4s unseen


@given(st.integers(0, 2**32), st.sampled_from(["", "multi", "all"]), st.integers(1, 60),
       st.booleans())
def test_odds_and_beliefs_are_probabilities_in_any_game(seed: int, rules_text: str,
                                                         steps: int, big_hands: bool) -> None:
    from usotsuki.bots.liar.belief import truth_belief
    from usotsuki.liar import parse_rules_text, random_action
    from usotsuki.liar.match import deal

    rules = parse_rules_text(rules_text, 4)
    if big_hands:  # a small stock: draws reach the flushed blocks, places get tracked
        rules = LiarRules(**(rules.options() | {"players": 4, "hand_size": 12}))
    rng = random.Random(seed)
    hands, stock = deal(rules, rng)
    state = new_game(rules, hands, stock, seed)
    for _ in range(steps):
        if state.to_move is None:
            return
        state = push(state, random_action(state, rng))
        for seat in range(4):
            v = view(state, seat)
            for p in (truth_probability(v), truth_belief(v), able_before_play(v)):
                assert p is None or 0.0 <= p <= 1.0
            if v.field and v.field[-1].seat != seat:
                odds, able = truth_probability(v), able_before_play(v)
                assert odds is not None and able is not None
                assert odds <= able + 1e-12  # truthful needs able


def test_belief_hand_counts_with_known_cards_match_enumeration() -> None:
    """hands_with (the beliefs' counting) with cards certainly held: enumerate small pools."""
    unseen = [2, 3, 1] + [0] * 10  # a pool of 6 cards over rates 0, 1, 2
    pool = [0, 0, 1, 1, 1, 2]
    known = [1, 0, 1] + [0] * 10  # one card of rate 0 and one of rate 2 certainly held
    for hand in range(0, 5):
        for bounds in ({0: (2, 4)}, {1: (0, 0)}, {0: (1, 1), 2: (2, 4)}, {2: (0, 0)}):
            hits = 0
            for drawn in combinations(pool, hand):
                full = [0, 2, *drawn]
                hits += all(lo <= full.count(r) <= hi for r, (lo, hi) in bounds.items())
            assert hands_with(unseen, hand, bounds, known) == hits


@given(st.data())
def test_hypergeometric_at_least_matches_enumeration(data: st.DataObject) -> None:
    population = data.draw(st.integers(0, 10))
    successes = data.draw(st.integers(0, min(4, population)))
    draws = data.draw(st.integers(0, population + 2))  # beyond the population: take it all
    need = data.draw(st.integers(-1, 5))
    pool = [1] * successes + [0] * (population - successes)
    hands = list(combinations(pool, min(draws, population)))
    expect = sum(sum(h) >= need for h in hands) / len(hands)
    assert hypergeometric_at_least(need, population, successes, draws) == pytest.approx(expect)
    if need > 0 and draws <= population:  # the beliefs' counting agrees on one rate
        unseen = [successes, population - successes] + [0] * 11
        ways = hands_with(unseen, draws, {0: (need, 4)})
        assert ways / comb(population, draws) == pytest.approx(expect)


def test_hypergeometric_at_least_refuses_impossible_draws() -> None:
    with pytest.raises(ValueError):
        hypergeometric_at_least(1, 3, 4, 2)
    with pytest.raises(ValueError):
        hypergeometric_at_least(1, 5, 2, -1)
