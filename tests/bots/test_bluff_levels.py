"""Bluff levels (easy, normal, hard, expert): legal, reproducible, blind to hidden cards,
ordered by strength; their beliefs and decision rule."""

from __future__ import annotations

import gc
import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from usotsuki.bluff import (
    ALL_CALLS,
    CHALLENGE,
    BluffRules,
    BluffState,
    legal_actions,
    new_game,
    parse_action,
    push,
    start_round,
    view,
)
from usotsuki.bluff.actions import FIRST_STRONGER
from usotsuki.bluff.deal import deal_hands
from usotsuki.bots import make_bot
from usotsuki.bots.bluff.belief import BeliefModel, sample
from usotsuki.bots.bluff.expert_v1 import ExpertV1BluffBot
from usotsuki.bots.bluff.policy import DETERMINISTIC, choose, distribution
from usotsuki.cards import DECK, Card, parse_cards
from usotsuki.odds import call_probabilities
from usotsuki.tournament import Spec, run, summarize

LEVELS = ["easy", "normal", "hard", "expert"]


def mid_round(seed: int, calls: list[str], players: int = 4) -> BluffState:
    rng = random.Random(seed)
    state = new_game(BluffRules(players=players))
    state = start_round(state, deal_hands(state, rng)).state
    for text in calls:
        state = push(state, parse_action(text))
    return state


def with_other_hands(state: BluffState, seat: int, rng: random.Random) -> BluffState:
    """The same state, but every other seat holds different unseen cards."""
    assert state.hands is not None
    mine = state.hands[seat]
    pool = [c for c in DECK if c not in mine]
    rng.shuffle(pool)
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(pool[:len(hand)])))
            pool = pool[len(hand):]
    return BluffState(state.rules, state.losses, state.active, state.eliminated, state.dealer,
                      state.to_move, tuple(hands), state.calls, state.last_index, state.results)


def reachable(root: object, limit: int = 100_000) -> list[Any]:
    """Every object reachable from ``root`` through references."""
    seen: dict[int, Any] = {}
    todo = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


@pytest.mark.parametrize("name", LEVELS)
def test_bot_cannot_reach_hidden_cards_and_ignores_them(name: str) -> None:
    state = mid_round(3, ["pair 7", "two-pair 9 4"])
    seat = state.to_move
    assert seat is not None and state.hands is not None
    v = view(state, seat)
    objects = reachable(v)
    assert not any(isinstance(o, BluffState) for o in objects)
    other_hands = [h for s, h in enumerate(state.hands) if s != seat]
    assert not any(o is h for o in objects for h in other_hands)
    # The action depends on the view only: other hidden cards, same action.
    bot = make_bot("bluff", name)
    action = bot.act(v, legal_actions(state), random.Random(9))
    for k in range(3):
        other = with_other_hands(state, seat, random.Random(k))
        assert view(other, seat) == v
        assert bot.act(view(other, seat), legal_actions(other), random.Random(9)) == action


@pytest.mark.parametrize("name", LEVELS)
def test_levels_replay_exactly_from_their_generator(name: str) -> None:
    state = mid_round(5, ["card 9"])
    seat = state.to_move
    assert seat is not None
    bot = make_bot("bluff", name)
    v, legal = view(state, seat), legal_actions(state)
    picks = [bot.act(v, legal, random.Random(s)) for s in range(4)]
    assert picks == [bot.act(v, legal, random.Random(s)) for s in range(4)]
    assert all(p in legal for p in picks)


def test_b10_after_the_top_straight_flush_every_level_challenges() -> None:
    state = mid_round(1, ["straight-flush A H"])
    seat = state.to_move
    assert seat is not None
    for name in LEVELS:
        assert make_bot("bluff", name).act(view(state, seat), legal_actions(state),
                                           random.Random(0)) == CHALLENGE


def test_first_caller_never_challenges() -> None:
    state = mid_round(2, [])
    seat = state.to_move
    assert seat is not None
    for name in LEVELS:
        action = make_bot("bluff", name).act(view(state, seat), legal_actions(state),
                                             random.Random(1))
        assert action != CHALLENGE


def decide(probs: list[float], start: int, p_current: float | None) -> int:
    """The fixed rule's action (an index into ALL_CALLS, -1 to challenge)."""
    return choose(np.array(probs), start, p_current, DETERMINISTIC, random.Random(0))


def test_decision_rule_thresholds() -> None:
    probs = [0.1] * len(ALL_CALLS)
    probs[20] = 0.55
    # The weakest plausible raise; a fairly likely current call is not challenged.
    assert decide(probs, 10, 0.8) == 20
    # An unlikely current call is challenged.
    assert decide(probs, 10, 0.2) == -1
    # Challenge when it loses less often than the best raise would (0.9 * 0.6 = 0.54).
    flat = [0.1] * len(ALL_CALLS)
    assert decide(flat, 10, 0.5) == -1
    assert decide(flat, 10, 0.6) == 10
    # With no current call, always a call, even an unlikely one.
    assert decide(flat, 0, None) == 0
    assert decide(flat, len(ALL_CALLS), 0.9) == -1  # B10


def test_uninformed_beliefs_match_the_exact_odds() -> None:
    state = mid_round(4, ["pair Q", "three 5"])
    seat = state.to_move
    assert seat is not None
    v = view(state, seat)
    particles = sample(v, random.Random(1), BeliefModel(particles=4000, support=0, faith=0))
    exact = call_probabilities(v.hand, v.cards_in_play - len(v.hand))
    assert abs(particles.probabilities() - exact).max() < 0.04


def test_particles_deal_only_unseen_cards_in_the_right_sizes() -> None:
    state = mid_round(6, ["card 4", "pair 4"])
    seat = state.to_move
    assert seat is not None and state.hands is not None
    v = view(state, seat)
    particles = sample(v, random.Random(2), BeliefModel(particles=200))
    for row in particles.owner:
        for s in range(v.players):
            held = [DECK[c] for c in range(52) if row[c] == s]
            if s == seat:
                assert tuple(held) == tuple(sorted(v.hand))
            else:
                assert len(held) == v.hand_sizes[s]
    assert particles.weights.sum() == pytest.approx(1.0)


def test_beliefs_read_a_call_as_evidence_of_the_callers_cards() -> None:
    # Seat 1 called "three K": beliefs give "pair K" more weight than the plain odds.
    rng = random.Random(0)
    hand: tuple[Card, ...] = tuple(parse_cards(["2S", "5H", "9D"]))
    rest = [c for c in DECK if c not in hand]
    rng.shuffle(rest)
    hands = (hand, tuple(rest[:3]), tuple(rest[3:6]), tuple(rest[6:9]))
    state = replace(new_game(BluffRules(players=4, dealer=3)), losses=(2, 2, 2, 2))
    state = start_round(state, hands).state
    state = push(state, parse_action("card 3"))  # seat 0
    state = push(state, parse_action("three K"))  # seat 1
    state = push(state, parse_action("three A"))  # seat 2
    state = push(state, parse_action("full-house A 4"))  # seat 3
    v = view(state, 0)
    exact = call_probabilities(v.hand, v.cards_in_play - len(v.hand))
    belief = sample(v, random.Random(1), BeliefModel(particles=4000)).probabilities()
    index = next(c.index for c in ALL_CALLS if str(c) == "pair K")
    assert belief[index] > exact[index] + 0.05


def test_one_calls_probability_is_its_entry_among_all_326() -> None:
    # (the server's hint asks for the current call alone: the same number, cheaper)
    state = mid_round(6, ["pair 7", str(ALL_CALLS[-40])])
    assert state.to_move is not None
    particles = sample(view(state, state.to_move), random.Random(5),
                       BeliefModel(particles=300))
    every = particles.probabilities()
    assert [particles.probability(c.index) for c in ALL_CALLS] == pytest.approx(every,
                                                                               abs=1e-12)
    assert sum(0.0 < p < 1.0 for p in every) > 20  # (uncertain calls were compared)


def tournament_share(lineup: str, games: int) -> tuple[float, float]:
    spec = Spec("bluff", 4, tuple(lineup.split(",")), games, seed=11)
    first = summarize(spec, run(spec))["bots"][spec.bots[0]]
    return first["win_share"], first["ci95"][0]


def test_normal_beats_three_easy_bots() -> None:
    share, low = tournament_share("normal,easy,easy,easy", 40)
    assert share >= 0.5 and low > 0.25


@pytest.mark.timeout(900)  # 60 games of four bots: 150 s at the lowest priority when busy
def test_hard_beats_three_normal_bots() -> None:
    share, low = tournament_share("hard,normal,normal,normal", 60)
    assert low > 0.25, share


def test_expert_time_limit_caps_its_search() -> None:
    state = mid_round(7, ["pair 8"])
    seat = state.to_move
    assert seat is not None
    bot = ExpertV1BluffBot(iterations=10_000_000, time_limit=0.05)  # expert-v1 has the limit
    import time

    began = time.perf_counter()
    action = bot.act(view(state, seat), legal_actions(state), random.Random(0))
    assert time.perf_counter() - began < 5.0  # stopped by the limit, not the budget
    assert action == CHALLENGE or action.index >= FIRST_STRONGER[state.last_index]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 1.0]), min_size=326, max_size=326),
       st.integers(0, 326), st.one_of(st.none(), st.floats(0, 1)))
def test_the_fixed_rule_gives_one_action_for_sure(probs: list[float], start: int,
                                                 p_current: float | None) -> None:
    # What expert-v1's playouts rely on: the fixed rule needs no random draw.
    assume(start < len(ALL_CALLS) or p_current is not None)  # B5, B10
    indices, weights = distribution(np.array(probs), start, p_current, DETERMINISTIC)
    assert indices.size == 1 and weights[0] == 1.0
    if p_current is None:
        assert indices[0] >= start  # B5: the first caller calls
