"""The Liar levels' exact mixed strategies and the faithful readers built on them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from usotsuki.bots.exploit import exploiters
from usotsuki.bots.liar.levels import LEVELS
from usotsuki.bots.liar.random_play import RandomLiarBot
from usotsuki.bots.liar.readers import FaithfulReader, after_my_play, predict
from usotsuki.cards import DECK
from usotsuki.liar import LiarRules, new_game, push, view
from usotsuki.liar.actions import CARD_RATE, Play
from usotsuki.liar.legal import legal_summary
from usotsuki.tournament import Spec, play_game


def states(seed: int, count: int, players: int = 2, multi: bool = False):
    """States met in random heads-up games, each with a choice to make."""
    rng = random.Random(seed)
    rules = LiarRules(players=players, hand_size=5, multi=multi)
    bot = RandomLiarBot()
    out = []
    while len(out) < count:
        cards = list(DECK)
        rng.shuffle(cards)
        state = new_game(rules, [cards[5 * i:5 * i + 5] for i in range(players)],
                         cards[5 * players:])
        for _ in range(rng.randrange(1, 12)):
            if state.is_over:
                break
            state = push(state, bot.act(view(state, state.to_move),
                                        legal_summary(state), rng))
        if not state.is_over:
            out.append(state)
    return out


@pytest.mark.parametrize("name", ["easy", "normal", "hard", "random"])
def test_distribution_is_what_act_plays(name: str) -> None:
    """Each move's probability is its share of many seeded decisions (within 0.04)."""
    bot = RandomLiarBot() if name == "random" else LEVELS[name]()
    for state in states(3, 6):
        v = view(state, state.to_move)
        legal = legal_summary(state)
        probs = bot.distribution(v, legal)
        assert sum(probs.values()) == pytest.approx(1.0)
        rng = random.Random(5)
        n = 1500
        drawn = Counter(bot.act(v, legal, rng) for _ in range(n))
        for action in set(probs) | set(drawn):
            if isinstance(action, Play) and name in ("easy", "random"):
                continue  # a random play may take either card of a rate: compared below
            assert drawn[action] / n == pytest.approx(probs.get(action, 0.0), abs=0.04)
        by_rate = Counter()
        for action, p in probs.items():
            if isinstance(action, Play):
                by_rate[(CARD_RATE[action.cards[0]], action.rate)] += p
        for action, k in drawn.items():
            if isinstance(action, Play):
                by_rate[(CARD_RATE[action.cards[0]], action.rate)] -= k / n
        assert all(abs(x) < 0.04 for x in by_rate.values())


def test_easy_distribution_covers_plays_of_several_cards() -> None:
    """With O1, easy's plays of several cards (its cards in the hand's order) have the
    shares its draws give them, by count, rate and honesty (within 0.04)."""
    bot = LEVELS["easy"]()

    def kind(action: object) -> object:
        if not isinstance(action, Play):
            return action
        honest = all(CARD_RATE[c] == action.rate for c in action.cards)
        return (len(action.cards), action.rate, honest)

    several = 0
    for state in states(4, 8, multi=True):
        v = view(state, state.to_move)
        legal = legal_summary(state)
        probs = bot.distribution(v, legal)
        assert sum(probs.values()) == pytest.approx(1.0)
        several += any(isinstance(a, Play) and len(a.cards) > 1 for a in probs)
        expected: Counter = Counter()
        for action, p in probs.items():
            expected[kind(action)] += p
        rng = random.Random(6)
        n = 1500
        drawn = Counter(kind(bot.act(v, legal, rng)) for _ in range(n))
        for key in set(expected) | set(drawn):
            assert drawn[key] / n == pytest.approx(expected.get(key, 0.0), abs=0.04), key
    assert several  # the states held plays of several cards


def test_the_faithful_readers_are_exploiters() -> None:
    names = {x.name: x for x in exploiters("liar")}
    assert all(names[f"x-fr-{level}"].held_out for level in ("easy", "normal", "hard"))
    for level in ("easy", "hard"):
        result = play_game(Spec("liar", 2, (f"x-fr-{level}", level), 1, 4), 0)
        assert result.winner is not None or result.places


def test_a_read_is_a_probability_and_sees_impossible_claims() -> None:
    reader = FaithfulReader(LEVELS["normal"])
    for state in states(8, 10):
        if not state.field or state.field[-1].seat == state.to_move:
            continue
        p = reader(view(state, state.to_move))
        assert p is None or 0.0 <= p <= 1.0


def test_the_forecast_sums_to_one_and_the_next_view_is_legal() -> None:
    level = LEVELS["hard"]()
    for state in states(9, 8):
        me = state.to_move
        v = view(state, 1 - me)
        forecast = predict(level, v, samples=8)
        assert sum(forecast.values()) == pytest.approx(1.0)
        legal = legal_summary(state)
        if not legal.play:
            continue
        mine = view(state, me)
        play = Play((mine.hand[0],), legal.rates[0])
        after = push(state, play)
        rebuilt = after_my_play(mine, play, after.hands[1 - me])
        real = view(after, 1 - me)
        assert rebuilt.legal == real.legal
        # the cards of the next seat's own earlier plays are beyond the reader
        assert [(f.seat, f.count, f.rate) for f in rebuilt.field] == \
            [(f.seat, f.count, f.rate) for f in real.field]
        assert rebuilt.hand_sizes == real.hand_sizes
        assert rebuilt.hand == real.hand


@pytest.mark.parametrize(("players", "rules"),
                         [(4, ""), (2, "multi,revolution,jack_back,eight_cut")])
def test_the_readers_play_any_table_to_its_end(players: int, rules: str) -> None:
    """At four players or with house rules the reader keeps its faithful doubts and the
    plain cost model's plays; every move it makes is legal (the tournament checks)."""
    lineup = ("x-fr-normal",) + ("normal",) * (players - 1)
    result = play_game(Spec("liar", players, lineup, 1, 6, rules), 0)
    assert sorted(result.places)[0] == 1
