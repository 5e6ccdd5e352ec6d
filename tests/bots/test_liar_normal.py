"""Liar `normal`: the full calibrated belief heads-up, the small model at larger tables."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from usotsuki.bots import make_bot
from usotsuki.bots.liar.calibrated import calibrated_truth, normal_truth, simple_truth
from usotsuki.bots.liar.levels import LEVELS, NORMAL_WEIGHTS, LevelBot
from usotsuki.bots.liar.readers import ReaderBot
from usotsuki.cards import DECK
from usotsuki.liar import LiarRules, new_game, push, view
from usotsuki.liar.legal import LegalSummary, legal_summary
from usotsuki.liar.view import LiarView
from usotsuki.tournament import Spec, play_game


def doubt_decisions(players: int, count: int, seed: int) -> list[tuple[LiarView, LegalSummary]]:
    """Views of seats facing another seat's play they may doubt, met in games of
    ``normal`` bots (plain rules, the default deal), with the legal moves."""
    rng = random.Random(seed)
    rules = LiarRules(players=players)
    bot = LEVELS["normal"]()
    out: list[tuple[LiarView, LegalSummary]] = []
    while len(out) < count:
        cards = list(DECK)
        rng.shuffle(cards)
        hands = [cards[9 * i:9 * i + 9] for i in range(players)]
        state = new_game(rules, hands, cards[9 * players:])
        for _ in range(60):
            if state.is_over:
                break
            v, legal = view(state, state.to_move), legal_summary(state)
            assert legal is not None
            if legal.doubt and v.field and v.field[-1].seat != v.seat:
                out.append((v, legal))
            state = push(state, bot.act(v, legal, rng))
    return out[:count]


@pytest.mark.parametrize(("players", "belief"), [(4, simple_truth), (3, simple_truth),
                                                 (2, calibrated_truth)])
def test_normal_doubts_by_the_small_model_except_heads_up(
        players: int, belief: Callable[[LiarView], float | None]) -> None:
    """Every decision at three or more players is the small model's (the 4-player ladder's
    games are unchanged), every heads-up one the full model's; heads-up the two differ."""
    normal = LEVELS["normal"]()
    same_rule = LevelBot("normal", belief, NORMAL_WEIGHTS)
    small = LevelBot("normal", simple_truth, NORMAL_WEIGHTS)
    differ = 0
    for v, legal in doubt_decisions(players, 40, seed=players):
        assert normal_truth(v) == belief(v)
        assert normal.distribution(v, legal) == same_rule.distribution(v, legal)
        differ += normal.distribution(v, legal) != small.distribution(v, legal)
    assert (differ > 0) == (players == 2)


def test_normal_holds_against_its_faithful_reader_heads_up() -> None:
    """The reader lies where the small model believes it, at the lowest legal rate; read by
    the full model, `normal` keeps a fair part of 60 seeded heads-up games against the
    faithful reader of itself (the small model heads-up kept 13 of these 60)."""
    spec = Spec("liar", 2, ("x-fr-normal", "normal"), 60, 1)
    wins = 0.0
    for g in range(spec.games):
        result = play_game(spec, g)
        lineup = spec.lineup(g)
        wins += 0.5 if result.winner is None else float(lineup[result.winner] == "normal")
    assert wins / spec.games >= 0.35


def test_the_registered_reader_models_the_level_as_it_plays() -> None:
    """``x-fr-normal`` (as the exploit runs make it) models ``normal``'s heads-up rule, the
    full belief, not the small model it reads with at larger tables."""
    reader = make_bot("liar", "x-fr-normal")
    assert isinstance(reader, ReaderBot)
    heads_up = LevelBot("normal", calibrated_truth, NORMAL_WEIGHTS)
    for v, legal in doubt_decisions(2, 10, seed=5):
        assert reader.model.distribution(v, legal) == heads_up.distribution(v, legal)
