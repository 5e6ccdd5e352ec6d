"""Liar Game levels (easy, normal, hard, expert): legal moves from the view only, exact
replays, no reach into hidden cards, the belief model's counting, and that the levels
are ordered where it is cheap to check."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import combinations
from math import comb

import pytest

from usotsuki.bots import bot_names, make_bot
from usotsuki.bots.base import Bot
from usotsuki.bots.liar.belief import honesty, truth_belief
from usotsuki.bots.liar.search import determinize
from usotsuki.cards import DECK
from usotsuki.liar import (
    LiarRules,
    LiarState,
    apply,
    info_key,
    legal_summary,
    new_game,
    parse_rules_text,
    push,
    random_action,
    view,
)
from usotsuki.liar.match import deal
from usotsuki.liar.state import DoubtResult
from usotsuki.odds_liar import hands_with, truth_probability

LEVELS = ("easy", "normal", "hard", "expert")
def bot(name: str) -> Bot:
    made = make_bot("liar", name)
    if name == "expert":  # a smaller budget: the same decisions' kind, faster
        made.settings = made.settings._replace(playouts=24, horizon=10)  # type: ignore[attr-defined]
    return made


def play_game(bots: list[Bot], rules: LiarRules, seed: int, limit: int = 400
              ) -> tuple[list[str], LiarState]:
    """A game with checked actions (``apply`` raises on anything illegal); the moves as
    text, and the final state. Stops after ``limit`` moves."""
    from usotsuki.liar import format_action

    rng, bot_rng = random.Random(seed), random.Random(seed + 1)
    hands, stock = deal(rules, rng)
    state = new_game(rules, hands, stock, seed)
    moves = []
    while state.to_move is not None and len(moves) < limit:
        seat = state.to_move
        legal = legal_summary(state)
        action = bots[seat].act(view(state, seat), legal, bot_rng)
        state = apply(state, action).state
        moves.append(format_action(action))
    return moves, state


def test_levels_are_registered() -> None:
    assert set(LEVELS) <= set(bot_names("liar"))


@pytest.mark.parametrize("name", LEVELS)
@pytest.mark.parametrize("rules_text", ["", "all", "multi,revolution,jack_back,six_up"])
def test_levels_play_legal_moves_and_replay_exactly(name: str, rules_text: str) -> None:
    rules = parse_rules_text(rules_text, 4, turn_limit=None)
    limit = 60 if name == "expert" else 400
    bots = [bot(name), bot("easy"), bot(name), bot("normal")]
    first = play_game(bots, rules, 3, limit)[0]
    again = play_game([bot(name), bot("easy"), bot(name), bot("normal")], rules, 3, limit)[0]
    assert first == again
    assert len(first) >= min(limit, 20)


def test_global_random_does_not_matter() -> None:
    rules = LiarRules(players=4)
    a = play_game([bot("expert"), bot("hard"), bot("normal"), bot("easy")], rules, 8, 40)[0]
    random.seed(99)
    random.random()
    b = play_game([bot("expert"), bot("hard"), bot("normal"), bot("easy")], rules, 8, 40)[0]
    assert a == b


def played_positions(seeds: Iterable[int], rng: random.Random,
                     moves: int = 30) -> Iterator[tuple[int, LiarState]]:
    """Per seed, a 4-player multi-card game after 3 to ``moves`` random actions, when
    a seat is still to move."""
    rules = LiarRules(players=4, multi=True)
    for seed in seeds:
        hands, stock = deal(rules, random.Random(seed))
        state = new_game(rules, hands, stock, seed)
        for _ in range(rng.randrange(3, moves)):
            if state.to_move is None:
                break
            state = push(state, random_action(state, rng))
        if state.to_move is not None:
            yield seed, state


def hidden_twin(state: LiarState, seat: int, rng: random.Random) -> LiarState:
    """The same state with every card ``seat`` cannot see dealt anew (same sizes)."""
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    # (the seat's own plays on the field it saw go down: they stay)
    hidden += list(state.stock) + [c for p in state.field if p.seat != seat for c in p.cards]
    rng.shuffle(hidden)
    it = iter(hidden)
    hands = tuple(hand if s == seat else tuple(next(it) for _ in hand)
                  for s, hand in enumerate(state.hands))
    field = tuple(p if p.seat == seat else p._replace(cards=tuple(next(it) for _ in p.cards))
                  for p in state.field)
    stock = tuple(it)
    return replace(state, hands=hands, field=field, stock=stock)


@pytest.mark.parametrize("name", LEVELS)
def test_bots_cannot_reach_hidden_cards(name: str) -> None:
    """Two states that differ only in cards the seat cannot see give the same view, and
    each bot the same move from the same generator: nothing hidden reaches it."""
    rng = random.Random(5)
    checked = 0
    for seed, state in played_positions(range(30), rng):
        seat = state.to_move
        assert seat is not None
        twin = hidden_twin(state, seat, rng)
        assert twin.hands != state.hands or twin.stock != state.stock
        v, w = view(state, seat), view(twin, seat)
        assert info_key(v) == info_key(w)
        legal = legal_summary(state)
        a = bot(name).act(v, legal, random.Random(seed))
        b = bot(name).act(w, legal, random.Random(seed))
        assert a == b
        checked += 1
    assert checked >= 10


def test_view_gives_no_path_to_other_hands() -> None:
    """Walk every object reachable from a view: no other seat's hand and no stock order."""
    import gc

    rules = LiarRules(players=4)
    hands, stock = deal(rules, random.Random(1))
    state = new_game(rules, hands, stock, 1)
    v = view(state, state.to_move or 0)
    seen, todo = set(), [v]
    others = {hand for s, hand in enumerate(state.hands) if s != v.seat}
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        assert obj is not state and obj is not state.stock and obj not in others
        todo.extend(gc.get_referents(obj))


def test_determinizations_are_consistent_with_the_view() -> None:
    rules = parse_rules_text("all", 4)
    rng = random.Random(2)
    for seed in range(12):
        hands, stock = deal(rules, random.Random(seed))
        state = new_game(rules, hands, stock, seed)
        for _ in range(rng.randrange(2, 40)):
            if state.to_move is None or state.owed:
                break
            state = push(state, random_action(state, rng))
        if state.to_move is None or state.owed:
            continue
        v = view(state, state.to_move)
        for p_truth in (None, 0.0, 1.0):
            det = determinize(v, rng, p_truth)
            assert info_key(view(det, v.seat or 0)) == info_key(v)
            cards = [c for h in det.hands for c in h] + list(det.stock)
            cards += [c for p in det.field for c in p.cards]
            assert sorted(cards) == list(DECK)


def test_hands_with_counts_like_enumeration() -> None:
    unseen = (2, 1, 3, 0, 2)  # rates 0..4; the pool is these 8 cards
    pool = [r for r, n in enumerate(unseen) for _ in range(n)]
    for hand in (2, 3, 5):
        for bounds in ({0: (1, 4)}, {0: (0, 0), 2: (2, 4)}, {1: (1, 1), 4: (0, 1)}):
            brute = sum(all(lo <= sum(pool[i] == r for i in pick) <= hi
                            for r, (lo, hi) in bounds.items())
                        for pick in combinations(range(len(pool)), hand))
            assert hands_with(unseen + (0,) * 8, hand, bounds) == brute
    assert hands_with((4,) * 13, 9, {}) == comb(52, 9)


def state_after_lead(declared: str, mine: str) -> LiarState:
    from usotsuki.cards import parse_card
    from usotsuki.liar import parse_action

    other = "3S 4S 5S 6S 7S 8S 9S TS JS"
    hands = [tuple(parse_card(t) for t in h.split())
             for h in (other, mine, "3H 4H 5H 6H 7H 8H 9H TH JH",
                       "3C 4C 5C 6C 7C 8C 9C TC JC")]
    used = {c for h in hands for c in h}
    state = new_game(LiarRules(players=4), hands, [c for c in DECK if c not in used], 1)
    return push(state, parse_action(f"play 3S as {declared}"))


def test_belief_trusts_a_declaration_more_than_the_uniform_odds() -> None:
    """People declare what they hold: the belief in a lead is far above the uniform odds,
    and it falls to zero when the seat holds every card of the rate."""
    state = state_after_lead("Q", "QD KD AD 2D QH 3D 4D 5D 6D")
    v = view(state, 1)
    belief, odds = truth_belief(v), truth_probability(v)
    assert belief is not None and odds is not None
    assert 0.0 < odds < belief < 1.0
    held_all = view(state_after_lead("Q", "QD QH QC QS 3D 4D 5D 6D 7D"), 1)
    assert truth_belief(held_all) == 0.0


def test_honesty_falls_with_lies_found_by_doubts() -> None:
    v = view(state_after_lead("Q", "QD KD AD 2D QH 3D 4D 5D 6D"), 1)
    lie = DoubtResult(1, 0, 5, (DECK[0],), False, 0, 1)
    truth = DoubtResult(1, 0, 5, (DECK[0],), True, 1, 1)
    assert honesty(replace(v, doubts=(lie, lie)), 0) < honesty(v, 0)
    assert honesty(replace(v, doubts=(truth,)), 0) > honesty(v, 0)


def share(top: str, low: str, rules_text: str, games: int) -> float:
    rules = parse_rules_text(rules_text, 4)
    wins = 0
    for g in range(games):
        seat = g % 4
        bots = [bot(low) for _ in range(4)]
        bots[seat] = bot(top)
        state = play_game(bots, rules, 1000 + g, limit=5000)[1]
        wins += state.winner == seat
    return wins / games


def test_normal_beats_three_easy() -> None:
    assert share("normal", "easy", "", 24) >= 0.5


@pytest.mark.parametrize("players", [2, 3, 6, 8])
@pytest.mark.parametrize("rules_text", ["", "all"])
def test_every_level_at_every_table_size(players: int, rules_text: str) -> None:
    """Deal-all tables (no stock, L3) and 2 players included: checked moves only."""
    rules = parse_rules_text(rules_text, players)
    bots = [bot(LEVELS[s % len(LEVELS)]) for s in range(players)]
    moves, state = play_game(bots, rules, players, limit=150)
    assert len(moves) == 150 or state.to_move is None


def test_a_pass_when_the_rate_was_legal_weighs_against_the_claim() -> None:
    """Seat 0 passed on a 5 and now declares K: had it held a K it would likely have
    played it then. The same declaration without that pass is believed more."""
    from usotsuki.liar import parse_rate
    from usotsuki.liar.view import FieldView

    v = view(state_after_lead("Q", "QD KD AD 2D QH 3D 4D 5D 6D"), 1)
    five, seven, king = parse_rate("5"), parse_rate("7"), parse_rate("K")
    passed = replace(v, field=(FieldView(3, 1, five), FieldView(1, 1, seven),
                               FieldView(0, 1, king)))
    not_passed = replace(v, field=(FieldView(0, 1, five), FieldView(1, 1, seven),
                                   FieldView(0, 1, king)))
    a, b = truth_belief(passed), truth_belief(not_passed)
    assert a is not None and b is not None
    assert a < b
