"""The exact best response of the small heads-up Liar Game (research/liar_small.py)."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest

from usotsuki.bots.liar.random_play import RandomLiarBot
from usotsuki.liar import LiarRules
from usotsuki.liar.legal import legal_summary
from usotsuki.liar.state import new_game, push
from usotsuki.liar.view import view
from usotsuki.research.liar_small import best_response_value, last_payoff, payoff

TOP = 12  # the rate "2", which nothing beats (L2)


def random_deal(rules: LiarRules, rng: random.Random):
    from usotsuki.cards import DECK

    cards = list(DECK)
    rng.shuffle(cards)
    n = rules.hand_size
    return new_game(rules, (cards[:n], cards[n:2 * n]), cards[2 * n:])


@pytest.mark.parametrize("turns", [1, 2, 3, 4, 5])
def test_last_payoff_is_the_cores_payoff(turns: int) -> None:
    """The shortcut for a game's last move agrees with the core on random play."""
    rules = LiarRules(players=2, hand_size=2, turn_limit=turns)
    rng = random.Random(turns)
    bot = RandomLiarBot()
    checked = 0
    for _ in range(300):
        state = random_deal(rules, rng)
        while state.turns < turns - 1 and not state.is_over:
            v = view(state, state.to_move)
            state = push(state, bot.act(v, legal_summary(state), rng))
        if state.is_over:
            continue
        v = view(state, state.to_move)
        for action in bot.distribution(v, legal_summary(state)):
            after = push(state, action)
            assert after.is_over
            for seat in (0, 1):
                assert last_payoff(state, action, seat) == payoff(after, seat)
            checked += 1
    assert checked > 300


def test_one_turn_is_worth_nothing() -> None:
    """With one action the leader always ends first: either seat is as likely to lead."""
    value, _ = best_response_value(RandomLiarBot(), LiarRules(players=2, hand_size=2,
                                                              turn_limit=1))
    assert value == pytest.approx(0.0, abs=1e-12)


def random_two_turns_value() -> float:
    """The best response to ``random`` over two turns, worked out by hand:

    - leading, a truthful "2" leaves the random player only a pass or a doubt, each
      losing (+1); any other truthful lead: one of its three kinds (a play) ties (2/3);
    - answering, any play above the lead ties (0), so only a lead declared "2" costs:
      a doubt then loses when the card is a 2: -1/13 times the leader's share of 2s.
    Deals by rates; L4 gives the lead to the lowest card (half each when both hold it).
    """
    hands = list(combinations_with_replacement(range(13), 2))
    total = math.comb(52, 2) * math.comb(50, 2)
    value = 0.0
    for mine in hands:
        for theirs in hands:
            a, b = Counter(mine), Counter(theirs)
            if any(a[r] + b[r] > 4 for r in a):
                continue
            ways = 1
            for r in set(a) | set(b):
                ways *= math.comb(4, a[r]) * math.comb(4 - a[r], b[r])
            low = min(mine + theirs)
            lead = (low in mine) / ((low in mine) + (low in theirs))
            leading = 1.0 if TOP in mine else 2 / 3
            answering = -(1 / 13) * theirs.count(TOP) / 2
            value += ways / total * (lead * leading + (1 - lead) * answering)
    return value


def test_two_turns_against_random_by_hand() -> None:
    value, _ = best_response_value(RandomLiarBot(), LiarRules(players=2, hand_size=2,
                                                              turn_limit=2))
    assert value == pytest.approx(random_two_turns_value(), abs=1e-9)


def test_either_seat_gets_the_same() -> None:
    """The seats are alike (L4 decides who leads), so the best response is the same."""
    rules = LiarRules(players=2, hand_size=2, turn_limit=2)
    from usotsuki.research.liar_small import level_policy

    policy = level_policy("normal")
    v0, _ = best_response_value(policy, rules, seat=0)
    v1, _ = best_response_value(policy, rules, seat=1)
    assert v0 == pytest.approx(v1, abs=1e-9)
    assert 0.0 < v0 <= 1.0


def test_a_search_level_is_refused() -> None:
    from usotsuki.research.liar_small import level_policy

    with pytest.raises(ValueError, match="not known exactly"):
        level_policy("expert")
