"""The faithful Bluff readers: each level's action distribution is what it plays, and a
reader that rebuilds the level reads its calls."""

from __future__ import annotations

import random

import numpy as np
import pytest

from usotsuki.bluff import (
    BluffRules,
    BluffState,
    legal_actions,
    new_game,
    parse_action,
    push,
    start_round,
)
from usotsuki.bluff import view as seat_view
from usotsuki.bluff.actions import ALL_CALLS, Call
from usotsuki.bots import make_bot
from usotsuki.bots.bluff import solved
from usotsuki.bots.bluff.exploiters import ExactOddsModel, ExpertAnswer
from usotsuki.bots.bluff.faithful import FaithfulReader, model_probabilities
from usotsuki.bots.bluff.levels import NormalBluffBot
from usotsuki.bots.bluff.policy import DETERMINISTIC
from usotsuki.cards import parse_cards
from usotsuki.tournament import Spec, play_game


def heads_up(hand0: str, hand1: str) -> BluffState:
    state = new_game(BluffRules(players=2, dealer=1))
    return start_round(state, (tuple(parse_cards([hand0])), tuple(parse_cards([hand1])))).state


def index_of(action: object) -> int:
    return action.index if isinstance(action, Call) else -1


@pytest.mark.parametrize("name", ["easy", "normal", "hard", "expert"])
def test_a_level_plays_from_its_distribution(name: str) -> None:
    state = push(heads_up("KS", "7H"), parse_action("card 5"))
    v, legal = seat_view(state, 1), legal_actions(state)
    bot = make_bot("bluff", name)
    for seed in range(12):
        indices, weights = bot.distribution(v, random.Random(seed))  # type: ignore[attr-defined]
        assert weights.sum() == pytest.approx(1.0) and (weights > 0).all()
        assert set(indices) <= {index_of(a) for a in legal}
    if name in ("easy", "normal"):  # act draws from the same belief: its action is in the support
        for seed in range(12):
            indices, _ = bot.distribution(v, random.Random(seed))  # type: ignore[attr-defined]
            assert index_of(bot.act(v, legal, random.Random(seed))) in indices


def test_the_faithful_reader_believes_an_honest_opening() -> None:
    # normal opens "card K" holding the king of spades (one-card hands): the reader, who
    # rebuilds normal for every card it might hold, believes a king is out
    state = push(heads_up("KS", "7H"), parse_action("card K"))
    reader = FaithfulReader("x-faithful-normal", NormalBluffBot)
    probs = reader.posterior(seat_view(state, 1), random.Random(0))
    index = next(c.index for c in ALL_CALLS if str(c) == "card K")
    assert probs[index] > 0.6  # the prior: 4 kings among 51 cards, under 0.08


def test_a_deterministic_model_gives_its_own_actions_probability_one() -> None:
    model = ExactOddsModel(DETERMINISTIC)
    state = heads_up("KS", "7H")
    views, actions = [], []
    for _ in range(3):
        v = seat_view(state, state.to_move)
        indices, _ = model.distribution(v, random.Random(0))
        if indices[0] < 0:
            break
        views.append(v)
        actions.append(int(indices[0]))
        state = push(state, ALL_CALLS[int(indices[0])])
    p = model_probabilities(model, views, actions, random.Random(1))
    assert views and np.allclose(p, 1.0)


def test_the_hard_reader_plays_a_legal_game() -> None:
    # a short game (max_cards 2): every action legal (BotFault else)
    result = play_game(Spec("bluff", 2, ("x-faithful-hard", "hard"), 1, 3, "max_cards=2"), 0)
    assert result.winner is not None


def test_the_expert_distribution_is_the_stored_equilibrium_in_a_solved_round() -> None:
    # r4-1v1 (B13's deck of J Q K A, one card each) is solved: the expert plays its stored
    # strategy there, and its faithful reader must rebuild that, not the search
    state = new_game(BluffRules(players=2, dealer=1, ranks=4))
    state = start_round(state, (tuple(parse_cards(["KS"])), tuple(parse_cards(["JH"])))).state
    v = seat_view(state, state.to_move)
    stored = solved.policy(v)
    assert stored is not None
    indices, weights = make_bot("bluff", "expert").distribution(  # type: ignore[attr-defined]
        v, random.Random(0))
    got = dict(zip(indices.tolist(), weights.tolist(), strict=True))
    want = {index_of(a): p / sum(stored.values()) for a, p in stored.items()}
    assert got.keys() == want.keys()
    assert all(got[k] == pytest.approx(want[k]) for k in want)


def test_the_expert_reader_answers_from_the_stored_equilibrium_in_a_solved_round() -> None:
    state = new_game(BluffRules(players=2, dealer=1, ranks=4))
    state = start_round(state, (tuple(parse_cards(["KS"])), tuple(parse_cards(["JH"])))).state
    v = seat_view(state, state.to_move)
    answer = ExpertAnswer().distribution(v, random.Random(0))
    search = make_bot("bluff", "expert").distribution(v, random.Random(0))  # type: ignore[attr-defined]
    assert np.array_equal(answer[0], search[0]) and np.allclose(answer[1], search[1])
