"""One model of "is this Liar Game play truthful" (usotsuki.odds_liar), shared by the hints,
the bots and the odds: on positions where cards shown in doubts matter, each of them gives
the model's number, and the model's number is brute-force enumeration's."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from usotsuki.bots.liar.levels import NORMAL_HONESTY, normal_estimate
from usotsuki.bots.liar.sensible import SensibleLiarBot
from usotsuki.cards import DECK, parse_card
from usotsuki.cli.liar_play import hint_lines
from usotsuki.cli.liar_render import Names
from usotsuki.liar import LiarRules, LiarState, legal_summary, new_game, parse_action, push, view
from usotsuki.liar.actions import CARD_RATE
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import able_before_play, truth_probability

DEAL_ALL = ("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
            "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C")


def game(rules: LiarRules, hands: tuple[str, ...], *actions: str) -> LiarState:
    dealt = [tuple(parse_card(t) for t in h.split()) for h in hands]
    used = {c for hand in dealt for c in hand}
    state = new_game(rules, dealt, [c for c in DECK if c not in used], 7)
    for text in actions:
        state = push(state, parse_action(text))
    return state


def sevens_under_the_stock() -> LiarState:
    """7S 7H 7D shown in a truthful doubt lie under the stock: seat 0's "1 card as 7"
    can only be the one 7 left, 7C."""
    return game(LiarRules(players=3, hand_size=5, multi=True),
                ("3S 7S 7H 7D 9C", "4S 5S 6S 8S TS", "4H 5H 6H 8H TH"),
                "play 7S 7H 7D as 7", "doubt", "play 9C as 7")


def nine_drawn_back() -> LiarState:
    """Seat 1 took back the shown 9D (no stock: the field returns to the drawer): it may
    be the card of its next play as 9."""
    return game(LiarRules(players=2, deal_all=True), DEAL_ALL,
                "play 3S as 3", "play 9D as 5", "doubt", "play 4S as 4", "play 2D as 9")


def brute(v: LiarView) -> tuple[float, float]:
    """(truthful, able) by enumerating every hand the current player could have held before
    the play (its certain cards plus cards the seat cannot place), and every played subset."""
    current = v.field[-1]
    assert v.hand is not None
    known = list(v.known_before_play)
    own = {c for p in v.field if p.cards is not None for c in p.cards}  # its own plays
    placed = set(v.hand) | {c for c, _ in (*v.known_places, *v.own_places)} | set(known) | own
    pool = [c for c in DECK if c not in placed]
    size = v.hand_sizes[current.seat] + current.count
    truthful = plays = able = hands = 0
    for drawn in combinations(pool, size - len(known)):
        held = known + list(drawn)
        hands += 1
        able += sum(CARD_RATE[c] == current.rate for c in held) >= current.count
        for played in combinations(held, current.count):
            plays += 1
            truthful += all(CARD_RATE[c] == current.rate for c in played)
    return truthful / plays, able / hands


POSITIONS = {"sevens under the stock": (sevens_under_the_stock, 1),
             "a nine drawn back": (nine_drawn_back, 0)}


@pytest.mark.parametrize("name", POSITIONS)
def test_odds_hints_and_bots_give_the_models_number(name: str) -> None:
    make, seat = POSITIONS[name]
    state = make()
    v = view(state, seat)
    truthful, able = brute(v)
    assert truth_probability(v) == pytest.approx(truthful, abs=1e-12)
    assert able_before_play(v) == pytest.approx(able, abs=1e-12)
    # the hint shows the model's number
    lines = hint_lines(v, "pass", Names(["a", "b", "c"], seat))
    assert f"{truthful:.2f} from the cards alone (カードだけから計算すると)" in "\n".join(lines)
    # normal and sensible read the same model (with their own policy on top)
    assert normal_estimate(v) == pytest.approx(NORMAL_HONESTY * able, abs=1e-12)
    bot = SensibleLiarBot()
    assert bot.truth_estimate(v) == pytest.approx(able / (able + (1 - able) * bot.lie_rate),
                                                  abs=1e-12)


def test_a_shown_card_back_in_the_players_hand_may_be_played() -> None:
    """The stale reading (every card shown in a doubt is out of every later play) would
    call seat 1's play as 9 doubtful; it certainly held 9D, so it was able to."""
    state = nine_drawn_back()
    v = view(state, 0)
    assert [str(c) for c in v.known_before_play] == ["9D"]
    assert able_before_play(v) == 1.0
    assert SensibleLiarBot().truth_estimate(v) == 1.0
    legal = legal_summary(state)
    assert legal is not None
    assert SensibleLiarBot().act(v, legal, random.Random(0)) != parse_action("doubt")


def test_cards_under_the_stock_make_a_claim_impossible_for_the_bots() -> None:
    state = game(LiarRules(players=2, hand_size=5, multi=True),
                 ("9S 9C 3S 5D 6D", "9H 9D 4H 7H 8H"),
                 "play 9S 9C as 9", "doubt", "play 3S 5D as 9")
    v = view(state, 1)
    assert {str(c) for c, place in v.known_places if place == "stock"} == {"9S", "9C"}
    assert able_before_play(v) == truth_probability(v) == 0.0
    assert normal_estimate(v) == 0.0
    assert SensibleLiarBot().truth_estimate(v) == 0.0
