"""The game review (usotsuki.analysis): exact odds against enumeration, values within
their error bars on a position solved by brute force, determinism, marks and summaries."""

from __future__ import annotations

import random
from itertools import combinations, permutations
from typing import Any

import numpy as np
import pytest

from usotsuki import bluff, liar
from usotsuki.analysis import NotAnalysable, analyse, assemble, judge_points, plan
from usotsuki.analysis.common import (
    THRESHOLDS,
    Estimate,
    difference_error,
    game_accuracy,
    mark,
    move_accuracy,
)
from usotsuki.analysis.search import ExpertBluffSearch
from usotsuki.analysis.win_chance import after_round, bluff_lives
from usotsuki.bluff import BluffRules, parse_action
from usotsuki.bluff.actions import FIRST_STRONGER
from usotsuki.bots import make_bot
from usotsuki.bots.bluff.belief import Particles, _log_likelihood
from usotsuki.bots.bluff.calibration import recalibrate
from usotsuki.bots.bluff.policy import NO_CALL, MixedRule, distribution
from usotsuki.cards import DECK, Card, parse_card
from usotsuki.liar.actions import CARD_RATE
from usotsuki.odds import call_probabilities, deck_mask
from usotsuki.session import BluffSession, LiarSession


def bot_record(game: str, seed: int, bots: tuple[str, ...], **rules: Any) -> dict[str, Any]:
    """A finished game between cheap bots."""
    players = len(bots)
    session: Any = (BluffSession.create(BluffRules(players=players, **rules))
                    if game == "bluff" else
                    LiarSession.create(liar.LiarRules(players=players, **rules), seed))
    chance = random.Random(seed)
    agents = [make_bot(game, b) for b in bots]
    rng = random.Random(seed + 1)
    while not session.is_over:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(chance))
            continue
        seat = session.to_move
        session, _ = session.apply(agents[seat].act(session.view(seat), session.legal(), rng))
    record: dict[str, Any] = session.record()
    return record


SMALL_BLUFF = bot_record("bluff", 3, ("normal", "easy", "hard"), max_cards=2, ranks=3)
SMALL_LIAR = bot_record("liar", 5, ("normal", "easy", "normal"), hand_size=3, turn_limit=40)


def brute_call(call: bluff.Call, hand: tuple[Card, ...], unseen: int, ranks: int) -> float:
    """B8 by enumeration: every set of ``unseen`` cards the others may hold."""
    low = 13 - ranks
    pool = [c for c in DECK if c.rank >= low and c not in hand]
    hits = total = 0
    for others in combinations(pool, unseen):
        total += 1
        hits += bluff.is_true(call, (hand, others))
    return hits / total


def test_bluff_odds_are_exact_against_enumeration() -> None:
    """B13's 12-card deck: each decision's odds from its seat's view, by enumeration."""
    result = analyse(SMALL_BLUFF, depth=8)
    walk = plan(SMALL_BLUFF)
    checked = 0
    for d, point in zip(result["decisions"], walk.points, strict=True):
        v = point.view
        hand = v.hand or ()
        unseen = v.cards_in_play - len(hand)
        if v.current_call is not None:
            assert d["p_current"] == pytest.approx(brute_call(v.current_call, hand, unseen, 3),
                                                   abs=1e-4)
            checked += 1
        if isinstance(point.action, bluff.Call):
            assert d["p_action"] == pytest.approx(brute_call(point.action, hand, unseen, 3),
                                                  abs=1e-4)
    assert checked >= 5


def brute_play(v: liar.LiarView) -> float:
    """L9 by enumeration: every hand the current player may have held before the play
    (its tracked cards plus cards the seat cannot place) and every subset it played."""
    current = v.field[-1]
    assert v.hand is not None
    known = list(v.known_before_play)
    own = {c for p in v.field if p.cards is not None for c in p.cards}
    placed = set(v.hand) | {c for c, _ in (*v.known_places, *v.own_places)} | set(known) | own
    pool = [c for c in DECK if c not in placed]
    size = v.hand_sizes[current.seat] + current.count
    hits = total = 0
    for drawn in combinations(pool, size - len(known)):
        for played in combinations(known + list(drawn), current.count):
            total += 1
            hits += all(CARD_RATE[c] == current.rate for c in played)
    return hits / total


def test_liar_odds_are_exact_against_enumeration() -> None:
    walk = plan(SMALL_LIAR)
    picked = [i for i, p in enumerate(walk.points)
              if p.view.field and p.view.field[-1].seat != p.seat
              and p.view.hand_sizes[p.view.field[-1].seat] <= 2][:4]
    assert len(picked) >= 3
    decisions = judge_points(walk, picked, 0, 4)
    for i, d in zip(picked, decisions, strict=True):
        view = walk.points[i].view
        assert isinstance(view, liar.LiarView)
        assert d["p_current"] == pytest.approx(brute_play(view), abs=1e-4)


def solved_values(search: ExpertBluffSearch, v: bluff.BluffView,
                  options: list[bluff.Action]) -> dict[str, float]:
    """Every option's value by brute force under the search's own model: every deal of
    the unseen cards to the other seats, weighted as the expert's belief weighs particles
    (B3's uniform prior times how well the deal explains the calls); the challenge judged
    as the expert judges it (its calibration); each raise's chance of losing the round
    taken exactly over its playout rule's mixed choices (:func:`distribution`, not the
    playouts' vectorised steps); each value the seat's chance to win the game after the
    round's loser is known (:func:`after_round`)."""
    assert v.seat is not None and v.hand is not None
    low = 52 - v.deck_size
    pool = [c for c in DECK if int(c) >= low and c not in v.hand]
    others = [s for s in range(v.players) if s != v.seat and v.hand_sizes[s]]
    slots = [s for s in others for _ in range(v.hand_sizes[s])]
    deals = sorted({tuple(sorted(zip(slots, cards, strict=True)))
                    for cards in permutations(pool, len(slots))})
    owner = np.full((len(deals), 52), -1, dtype=np.int64)
    for k, deal in enumerate(deals):
        owner[k, [int(c) for c in v.hand]] = v.seat
        for seat, c in deal:
            owner[k, int(c)] = seat
    bot = search.bot
    log_w = _log_likelihood(v, owner, bot.cal.model(bot.particles_for(v)))
    w = np.exp(log_w - log_w.max())
    presence = owner >= 0
    particles = Particles(presence, presence.reshape(-1, 13, 4).sum(axis=2), owner, w / w.sum())
    truth = particles.truth()
    values: dict[str, float] = {}
    worth = after_round(bluff_lives(v), v.seat)
    if v.current_call is not None:
        exact = call_probabilities(v.hand, v.cards_in_play - len(v.hand), v.ranks)
        believed = float(recalibrate(particles.probabilities(), exact, bot.cal)[
            v.current_call.index])
        values["challenge"] = believed * worth[v.seat] + (1 - believed) * worth[
            v.calls[-1][0]]
    rule = bot.playout_rule(v)
    mask = deck_mask(v.ranks)
    for call in options:
        if isinstance(call, bluff.Call):
            loses = []
            for k in range(len(deals)):
                odds = {s: np.where(mask, call_probabilities(
                    [c for c in DECK if owner[k, int(c)] == s],
                    v.cards_in_play - v.hand_sizes[s], v.ranks), NO_CALL)
                    for s in range(v.players) if v.hand_sizes[s]}
                loses.append(_worth_after(v, odds, truth[k], rule, v.seat, call.index, worth,
                                           {}))
            values[str(call)] = float(np.dot(particles.weights, loses))
    return values


def _worth_after(v: bluff.BluffView, odds: dict[int, np.ndarray], truth: np.ndarray,
                 rule: MixedRule, caller: int, current: int, worth: tuple[float, ...],
                 memo: dict[tuple[int, int], float]) -> float:
    """Seat ``v.seat``'s expected ``worth[loser]`` after ``caller`` called
    ``ALL_CALLS[current]``, the next seats playing ``rule`` on their own cards (B5, B9)."""
    if (caller, current) in memo:
        return memo[caller, current]
    seat = v.next_seat(caller)
    probs = odds[seat]
    actions, weights = distribution(probs, FIRST_STRONGER[current], float(probs[current]),
                                    rule)
    total = 0.0
    for action, weight in zip(actions.tolist(), weights.tolist(), strict=True):
        if action < 0:
            loser = seat if truth[current] else caller  # B9
            total += weight * worth[loser]
        else:
            total += weight * _worth_after(v, odds, truth, rule, seat, action, worth, memo)
    memo[caller, current] = total / float(weights.sum())
    return memo[caller, current]


def test_bluff_values_within_their_error_bars_of_a_solved_position() -> None:
    """A 2-rank deck (8 cards), 3 players: enumerate every deal and play each candidate
    out exactly; the sampled values lie within their stated error bars."""
    rules = BluffRules(players=3, max_cards=2, ranks=2)
    search = ExpertBluffSearch(playouts=400)
    inside = total = 0
    for hands, calls in ((("KS", "AS KH", "AH"), ["card K"]),
                         (("AD", "KS", "AS KC"), ["card K", "card A"]),
                         (("KD AC", "KS", "AS"), ["card A", "pair K"])):
        # a round after one loss (B11): that seat holds two cards; seat 1 calls first
        losses = tuple(len(h.split()) - 1 for h in hands)
        state = bluff.BluffState(rules, losses, (True,) * 3, (), 0, 1, None, (), -1, ())
        state = bluff.start_round(state, [[parse_card(c) for c in h.split()]
                                          for h in hands]).state
        for text in calls:
            state = bluff.apply(state, parse_action(text)).state
        seat = state.to_move
        assert seat is not None
        v = bluff.view(state, seat)
        evaluation = search.evaluate(v, bluff.CHALLENGE, random.Random(7))
        exact = solved_values(search, v, [a for a, _ in evaluation.options])
        for action, estimate in evaluation.options:
            truth = exact[str(action)]
            total += 1
            inside += abs(estimate.value - truth) <= estimate.error
            assert abs(estimate.value - truth) <= 1.5 * estimate.error + 1e-9, (action, truth)
    assert total >= 6 and inside >= 0.85 * total


def test_same_record_and_seed_give_the_same_analysis() -> None:
    for record in (SMALL_BLUFF, SMALL_LIAR):
        first = analyse(record, seed=5, depth=6)
        assert analyse(record, seed=5, depth=6) == first
        # in chunks, as the server's workers judge them: the same analysis
        walk = plan(record)
        n = len(walk.points)
        parts = judge_points(walk, range(0, n // 2), 5, 6) + \
            judge_points(walk, range(n // 2, n), 5, 6)
        assert assemble(walk, parts, 5, 6) == first


def test_summary_counts_and_series() -> None:
    result = analyse(SMALL_BLUFF, depth=8)
    assert result["schema"] == "usotsuki.analysis/2" and result["finished"]
    assert len(result["win"]) == result["frames"]
    assert all(sum(w) == pytest.approx(1, abs=1e-3) for w in result["win"])
    winner = bluff.replay(SMALL_BLUFF).state.standings[0][0]  # type: ignore[union-attr]
    assert result["win"][-1] == [1.0 if s == winner else 0.0 for s in range(3)]  # B12
    calls = sum(1 for d in result["decisions"] if d["action"] != "challenge")
    assert sum(s["claims"] for s in result["summary"]) == calls
    challenges = [d for d in result["decisions"] if d["action"] == "challenge"]
    assert sum(s["tests"] for s in result["summary"]) == len(challenges)
    for d in result["decisions"]:
        if d["mark"] is not None:
            assert d["best"] == d["options"][0]["action"]
            assert d["lost"] >= 0 and d["mark"] in ("good", "inaccuracy", "mistake", "blunder")


def test_marks_need_a_loss_beyond_the_error_bar() -> None:
    for game in ("bluff", "liar"):
        inaccuracy, mistake, blunder = THRESHOLDS[game]
        assert mark(game, blunder + 0.01, 0.005) == "blunder"
        assert mark(game, mistake + 0.001, 0.001) == "mistake"
        assert mark(game, inaccuracy + 0.001, 0.001) == "inaccuracy"
        assert mark(game, inaccuracy / 2, 0.0) == "good"
        assert mark(game, blunder + 0.01, blunder + 0.02) == "good"  # within its bar
    paired = difference_error(Estimate(0.5, 0.1, (1.0, 0.0, 1.0, 0.0)),
                              Estimate(0.5, 0.1, (1.0, 0.0, 1.0, 0.0)))
    assert paired == 0.0  # the same playouts: no difference at all


def test_unfinished_records_are_analysed_and_bad_ones_refused() -> None:
    record = {**SMALL_BLUFF, "rounds": [{**SMALL_BLUFF["rounds"][0],
                                          "actions": SMALL_BLUFF["rounds"][0]["actions"][:2]}]}
    result = analyse(record, depth=4)
    assert not result["finished"] and len(result["decisions"]) == 2
    with pytest.raises(NotAnalysable, match="stronger|weaker|strong as"):
        analyse({**record, "rounds": [{"hands": record["rounds"][0]["hands"],
                                       "actions": ["pair A", "card K"]}]})
    with pytest.raises(NotAnalysable):
        analyse({"game": "chess"})
    with pytest.raises(NotAnalysable):
        analyse([1, 2])


def test_accuracy_is_lichess_percentage_higher_is_better() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.05) == pytest.approx(79.8, abs=0.1)  # 5 points of win chance
    assert move_accuracy(0.20) == pytest.approx(40.0, abs=0.1)
    assert move_accuracy(1.0) == 0.0
    assert game_accuracy([]) is None
    assert game_accuracy([100.0, 100.0]) == pytest.approx(100.0)
    # one bad move costs more than its share of the plain mean (the harmonic mean)
    assert game_accuracy([100.0] * 9 + [10.0]) < 91.0
