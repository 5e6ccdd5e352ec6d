"""Issue 11, the Liar Game half: mixed levels replay exactly and do mix, the exploiters
play legally, the calibrated belief fits and is exact where the cards decide, and the
honest hint says both numbers in both languages (terminal, server payload, browser)."""

from __future__ import annotations

import itertools
import math
import random
import re
from pathlib import Path

import pytest

from usotsuki.bots import make_bot
from usotsuki.bots.base import bot_names
from usotsuki.bots.exploit import exploiters
from usotsuki.bots.hints import LABELS, TruthHint
from usotsuki.bots.liar.calibrated import (
    FEATURES,
    FOLLOW_READ,
    LEAD_READ,
    calibrate,
    calibrated_truth,
    read_all_truth,
    read_truth,
    simple_truth,
)
from usotsuki.bots.liar.hints import liar_truth_hint
from usotsuki.bots.liar.levels import Weights, gibbs_choice
from usotsuki.bots.liar.search import EXPERT, SearchLiarBot
from usotsuki.cards import DECK, parse_card
from usotsuki.liar import (
    DoubtResult,
    LiarRules,
    LiarState,
    LiarView,
    apply,
    format_action,
    legal_summary,
    new_game,
    parse_action,
    parse_rules_text,
    push,
    view,
)
from usotsuki.liar.actions import CARD_RATE, DOUBT, PASS, Play
from usotsuki.liar.match import deal
from usotsuki.research.liar_fit import (
    Record,
    brier,
    collect,
    fit,
    game_of,
    isotonic_knots,
    predict,
    reliability,
)

STATIC = Path(__file__).resolve().parents[2] / "src" / "usotsuki" / "server" / "static" / "js"


def fast(name: str) -> object:
    made = make_bot("liar", name)
    if name.startswith("expert"):
        made.settings = made.settings._replace(playouts=16, horizon=8)  # type: ignore[attr-defined]
    return made


def play(names: list[str], rules_text: str, seed: int, limit: int) -> list[str]:
    """A game with every action checked by ``apply``; the moves as text."""
    rules = parse_rules_text(rules_text, len(names), turn_limit=None)
    rng, bot_rng = random.Random(seed), random.Random(seed + 1)
    hands, stock = deal(rules, rng)
    state = new_game(rules, hands, stock, seed)
    bots = [fast(n) for n in names]
    moves: list[str] = []
    while state.to_move is not None and len(moves) < limit:
        seat = state.to_move
        action = bots[seat].act(view(state, seat), legal_summary(state), bot_rng)  # type: ignore[attr-defined]
        state = apply(state, action).state
        moves.append(format_action(action))
    return moves


def _second_play() -> tuple[LiarState, LiarView, DoubtResult, DoubtResult]:
    """A seeded 4-player field of two plays by ``hard``: the state, the seat to move's
    view, and a doubted record of the last player's play found a lie / found the truth."""
    rules = LiarRules(players=4)
    hands, stock = deal(rules, random.Random(11))
    state = new_game(rules, hands, stock, 11)
    for _ in range(2):
        seat = state.to_move
        assert seat is not None
        state = push(state, make_bot("liar", "hard").act(view(state, seat),
                                                          legal_summary(state),
                                                          random.Random(0)))
    me = state.to_move
    assert me is not None and len(state.field) == 2
    lie = DoubtResult(me, seat, 5, (DECK[0],), False, seat, 1)
    truth = DoubtResult(me, seat, 5, (DECK[0],), True, me, 1)
    return state, view(state, me), lie, truth


@pytest.mark.parametrize("name", ["normal", "hard", "expert"])
def test_mixed_levels_replay_exactly_given_a_seed(name: str) -> None:
    limit = 40 if name == "expert" else 200
    first = play([name, "hard", name], "all", 5, limit)
    assert first == play([name, "hard", name], "all", 5, limit)
    assert len(first) >= 20


def test_gibbs_choice_is_the_cheapest_at_zero_and_mixes_near_equals() -> None:
    scored = [(0.0, PASS), (0.1, DOUBT), (3.0, Play((DECK[0],), 0))]
    rng = random.Random(1)
    assert {gibbs_choice(scored, 0.0, rng) for _ in range(50)} == {PASS}
    picks = [gibbs_choice(scored, 0.1, rng) for _ in range(4000)]
    share = picks.count(DOUBT) / len(picks)
    expected = math.exp(-1) / (1 + math.exp(-1) + math.exp(-30))
    assert share == pytest.approx(expected, abs=0.03)
    assert picks.count(scored[2][1]) == 0  # 3 cards worse: weight e^-30


@pytest.mark.parametrize("name", ["normal", "hard"])
def test_levels_above_easy_randomise_their_choices(name: str) -> None:
    """The same decision asked with different generators gets different answers at some
    points of a game: the hand cannot be read off one choice."""
    rules = LiarRules(players=3)
    rng = random.Random(3)
    hands, stock = deal(rules, rng)
    state = new_game(rules, hands, stock, 3)
    bot = make_bot("liar", name)
    mixed = 0
    for _ in range(120):
        if state.to_move is None:
            break
        v, legal = view(state, state.to_move), legal_summary(state)
        if len({bot.act(v, legal, random.Random(s)) for s in range(12)}) > 1:
            mixed += 1
        state = push(state, bot.act(v, legal, rng))
    assert mixed >= 3


def test_old_expert_is_kept_hidden_and_the_weights_default_to_the_old_rule() -> None:
    assert "expert-v1" in bot_names("liar", hidden=True)
    assert "expert-v1" not in bot_names("liar")
    assert Weights().temperature == 0.0 and Weights().keep == 0.0


@pytest.mark.parametrize("name", ["normal", "hard"])
def test_mixed_levels_lead_low_and_keep_the_top_cards(name: str) -> None:
    """Leading, the lowest rate held is the likeliest play and the top one is rare (the
    top rate leaves the others only a pass or a doubt, but leading it fed copies of a
    level each other's cards until games stalled: bots.liar.levels.NORMAL_WEIGHTS)."""
    state = game(LiarRules(players=3, hand_size=4), ("3S 7H KD 2C", "4S 5S 6S 8S",
                                                     "4H 5H 6H 8H"))
    assert state.to_move == 0 and not state.field
    v, legal = view(state, 0), legal_summary(state)
    bot = make_bot("liar", name)
    picks = [bot.act(v, legal, random.Random(s)) for s in range(300)]
    rates = [p.rate for p in picks if isinstance(p, Play)]
    assert len(rates) == len(picks)  # a leader must play (L6)
    assert max(set(rates), key=rates.count) == parse_action("play 3S as 3").rate
    assert rates.count(parse_action("play 2C as 2").rate) < len(rates) * 0.2


def test_four_copies_of_hard_finish_their_games() -> None:
    """Four ``hard`` bots end every game with a winner well before a tournament's turn
    limit (leading the top rate, they stalled in 6 of 16 games at 2,000 actions)."""
    for seed in range(3):
        rules = parse_rules_text("", 4, turn_limit=None)
        rng = random.Random(seed)
        hands, stock = deal(rules, rng)
        state = new_game(rules, hands, stock, seed)
        bots = [make_bot("liar", "hard") for _ in range(4)]
        actions = 0
        while state.to_move is not None and actions < 600:
            seat = state.to_move
            state = push(state, bots[seat].act(view(state, seat), legal_summary(state), rng))
            actions += 1
        assert state.winner is not None, f"seed {seed}: no winner after {actions} actions"


@pytest.mark.parametrize("x", [x.name for x in exploiters("liar")])
def test_liar_exploiters_play_legally(x: str) -> None:
    assert x.startswith("x-") and x not in bot_names("liar")
    slow = x.startswith("x-br-")  # a reader runs a level's rule on 40 hands per doubt
    moves = play([x, "hard"], "", 2, 50 if slow else 120)
    moves += play([x, "normal", x], "multi,revolution,eight_cut,jack_back,six_up,binding",
                  4, 40 if slow else 80)
    assert len(moves) >= 20


def test_the_family_has_a_held_out_half() -> None:
    family = exploiters("liar")
    held = [x for x in family if x.held_out]
    assert 0 < len(held) < len(family)
    assert {"x-always-lie", "x-never-lie", "x-br-normal", "x-br-hard"} <= {x.name for x in family}


# -- calibration -----------------------------------------------------------------------------


def test_fit_recovers_a_known_logistic_model_and_is_calibrated() -> None:
    rng = random.Random(0)
    true_w = [0.5, 1.5, -1.0] + [0.0] * 11
    records = []
    for g in range(3000):
        x = [1.0, rng.gauss(0, 1), float(rng.random() < 0.3)] + [0.0] * 11
        p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(x, true_w, strict=True))))
        records.append(Record(g, "hard", tuple(x), rng.random() < p, 0.5))
    w = fit(records)
    assert w[:3] == pytest.approx(true_w[:3], abs=0.15)
    pairs = [(predict(r, w), r.truthful) for r in records]
    assert all(abs(b["predicted"] - b["observed"]) < 0.05 for b in reliability(pairs)
               if b["n"] >= 300)
    assert brier(pairs) < brier([(0.5, r.truthful) for r in records])


def test_the_monotone_third_stage_fixes_a_bent_reliability_curve() -> None:
    """Predictions p whose true frequency is p squared: the pool-adjacent-violators map
    is non-decreasing, pinned at (0, 0) and (1, 1), and brings every bucket within 0.05."""
    rng = random.Random(4)
    pairs = []
    for _ in range(20000):
        p = rng.random()
        pairs.append((p, rng.random() < p * p))
    knots = isotonic_knots(pairs)
    assert knots[0] == (0.0, 0.0) and knots[-1] == (1.0, 1.0)
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(knots))
    before = reliability(pairs)
    after = reliability([(calibrate(p, knots), t) for p, t in pairs])
    assert max(abs(b["predicted"] - b["observed"]) for b in before) > 0.2
    assert all(abs(b["predicted"] - b["observed"]) < 0.05 for b in after if b["n"] >= 300)
    assert calibrate(0.3, None) == 0.3 and calibrate(0.5, [(0.0, 0.0), (1.0, 1.0)]) == 0.5
    assert isotonic_knots(pairs[:10]) == []  # too few to fit: the identity


def test_collect_on_a_tiny_fixture() -> None:
    records = collect([("normal", "hard")], [""], 1, seed=1, turn_limit=60)
    assert records and {r.level for r in records} <= {"normal", "hard"}
    assert all(0.0 <= r.odds <= 1.0 for r in records)
    # a claim the seat knows impossible is recorded without features: a certain lie
    assert all(not r.truthful for r in records if r.x is None)
    w = fit(records)
    assert all(0.0 <= predict(r, w) <= 1.0 for r in records)


def game(rules: LiarRules, hands: tuple[str, ...], *actions: str) -> LiarState:
    dealt = [tuple(parse_card(t) for t in h.split()) for h in hands]
    used = {c for hand in dealt for c in hand}
    state = new_game(rules, dealt, [c for c in DECK if c not in used], 7)
    for text in actions:
        state = push(state, parse_action(text))
    return state


def test_calibrated_belief_is_exact_where_the_cards_decide() -> None:
    state = game(LiarRules(players=2, hand_size=5, multi=True),
                 ("9S 9C 3S 5D 6D", "9H 9D 4H 7H 8H"),
                 "play 9S 9C as 9", "doubt", "play 3S 5D as 9")
    v = view(state, 1)
    assert calibrated_truth(v) == simple_truth(v) == 0.0  # 9S 9C are under the stock
    assert calibrated_truth(view(state, 0)) is None  # one's own play
    hint = liar_truth_hint(v)
    assert hint is not None and hint.calibrated == hint.odds == 0.0


def test_the_hint_reads_its_own_refit_and_the_bots_the_pooled_model() -> None:
    """The hint's model is refitted on the shipped bots' games (``--only hint``) while
    ``hard`` and the expert keep reading the pooled model; a model the file lacks falls
    back to the pooled one in all three stages."""
    from usotsuki.bots.liar.calibrated import coefficients, fitted, hint_truth, isotonic, link

    assert fitted("hint") == "hint" and fitted(None) == "pooled"
    assert coefficients("hint") != coefficients(None)
    assert fitted("nobody") == "pooled"
    assert (coefficients("nobody"), link("nobody"), isotonic("nobody")) == (
        coefficients(None), link(None), isotonic(None))
    _, v, _, _ = _second_play()
    hint = liar_truth_hint(v)
    assert hint is not None and hint.calibrated == hint_truth(v) == calibrated_truth(v, "hint")


def _after_hards_lead() -> tuple[LiarState, int]:
    """A seeded 4-player game after ``hard``'s first play (a lead): the state, the leader."""
    rules = LiarRules(players=4)
    hands, stock = deal(rules, random.Random(11))
    state = new_game(rules, hands, stock, 11)
    seat = state.to_move
    assert seat is not None
    return push(state, make_bot("liar", "hard").act(view(state, seat), legal_summary(state),
                                                     random.Random(0))), seat


def test_calibrated_belief_trusts_a_typical_first_play_more_than_the_card_odds() -> None:
    state, seat = _after_hards_lead()
    v = view(state, state.to_move)
    hint = liar_truth_hint(v)
    assert hint is not None and hint.calibrated is not None and hint.odds is not None
    assert 0.0 < hint.odds < hint.calibrated < 1.0


def test_a_record_of_caught_lies_lowers_both_calibrated_beliefs() -> None:
    """Issue 11: the belief learnt what a record of caught lies says (it was fitted with
    liars in the population), so a player caught lying in three doubts out of three is
    believed less than one never doubted, and one found truthful three times at least as
    much. (A seeded second play of a field: on a lead the belief saturates.)"""
    from dataclasses import replace

    _, v, lie, truth = _second_play()
    for belief in (calibrated_truth, simple_truth):
        plain, liar = belief(v), belief(replace(v, doubts=(lie,) * 3))
        honest = belief(replace(v, doubts=(truth,) * 3))
        assert plain is not None and liar is not None and honest is not None
        assert liar < plain - 0.15 and honest >= plain


def test_the_experts_read_of_a_lead_is_its_players_own_lead_record() -> None:
    """Issue 11: the expert reads each opponent apart. A lead by a player caught lying at
    its leads is believed less than the pooled model says, by the odds factor of the
    Beta posterior (``LEAD_READ``); another player's record, the player's doubted plays
    that were not leads, and plays that are not leads leave the pooled belief as it is."""
    from dataclasses import replace

    from usotsuki.bots.liar.belief import doubted_record, was_lead

    state, seat = _after_hards_lead()
    me = state.to_move
    assert me is not None and len(state.field) == 1  # a lead by ``seat``
    v = view(state, me)
    other = (seat + 2) % 4

    def lead_lie(doubted: int) -> DoubtResult:
        return DoubtResult(me, doubted, 5, (DECK[0],), False, doubted, 1)  # N = 1 card

    follow_lie = DoubtResult(me, seat, 5, (DECK[0],), False, seat, 3)  # N = 3: not a lead
    assert was_lead(lead_lie(seat)) and not was_lead(follow_lie)
    assert doubted_record((lead_lie(seat), follow_lie), seat, lead=True) == (0, 1)
    assert doubted_record((lead_lie(seat), follow_lie), seat, lead=False) == (0, 1)

    def odds(p: float | None) -> float:
        assert p is not None and 0.0 < p < 1.0
        return p / (1.0 - p)

    assert read_truth(v) == pytest.approx(calibrated_truth(v))
    a, b = LEAD_READ
    for doubts, factor in (((lead_lie(seat),) * 2, b / (b + 2)),
                           ((lead_lie(other),) * 2, 1.0), ((follow_lie,) * 2, 1.0)):
        w = replace(v, doubts=doubts)
        assert odds(read_truth(w)) / odds(calibrated_truth(w)) == pytest.approx(factor)
    caught = replace(v, doubts=(lead_lie(seat),) * 2)
    assert read_truth(caught) < calibrated_truth(caught) - 0.1  # type: ignore[operator]
    _, follow, lie, _ = _second_play()  # the second play of a field: not read
    for doubts in ((), (lead_lie(follow.field[-1].seat),) * 3, (lie,) * 3):
        w = replace(follow, doubts=doubts)
        assert read_truth(w) == calibrated_truth(w)
    expert = make_bot("liar", "expert")
    assert isinstance(expert, SearchLiarBot) and expert.settings is EXPERT
    assert expert.settings.belief is read_all_truth and expert.root.estimate is read_all_truth


def test_the_experts_read_of_other_plays_is_its_players_own_record_of_them() -> None:
    """Issue 11: with ``follows``, a play that answers another is believed less after its
    player's plays of that kind were caught lying, by the factor b / (b + l) of
    ``FOLLOW_READ``; its truthful ones, its caught leads and another player's lies leave
    the pooled belief as it is, as does the read without ``follows``; a lead is read as
    before (by its leads alone)."""
    from dataclasses import replace

    _, v, _, _ = _second_play()
    me, seat = v.seat, v.field[-1].seat
    assert me is not None and len(v.field) == 2
    other = next(s for s in range(4) if s not in (me, seat))

    def follow(doubted: int, truthful: bool) -> DoubtResult:  # N = 3 cards: not a lead
        return DoubtResult(me, doubted, 5, (DECK[0],), truthful, me if truthful else doubted, 3)

    lead_lie = DoubtResult(me, seat, 5, (DECK[0],), False, seat, 1)

    def odds(p: float | None) -> float:
        assert p is not None and 0.0 < p < 1.0
        return p / (1.0 - p)

    b = FOLLOW_READ
    for doubts, factor in (((), 1.0), ((follow(seat, False),) * 3, b / (b + 3)),
                           ((follow(seat, True),) * 3, 1.0), ((lead_lie,) * 3, 1.0),
                           ((follow(other, False),) * 3, 1.0)):
        w = replace(v, doubts=doubts)
        assert odds(read_truth(w, follows=True)) / odds(calibrated_truth(w)) == \
            pytest.approx(factor)
        assert read_all_truth(w) == read_truth(w, follows=True)
        assert read_truth(w) == calibrated_truth(w)
    caught = replace(v, doubts=(follow(seat, False),) * 5)
    assert read_all_truth(caught) < calibrated_truth(caught) - 0.05  # type: ignore[operator]
    state, leader = _after_hards_lead()
    assert state.to_move is not None
    lead = view(state, state.to_move)
    lead_lies = DoubtResult(state.to_move, leader, 5, (DECK[0],), False, leader, 1)
    for doubts in ((), (lead_lies,) * 2, (follow(leader, False),) * 3):
        w = replace(lead, doubts=doubts)
        assert read_all_truth(w) == read_truth(w)


def test_normals_small_model_reads_its_features_as_the_full_model_does() -> None:
    """``simple_features`` computes only what ``normal`` needs, in ``SIMPLE``'s order; each
    value is the full ``features`` entry of that name (the fit takes those columns)."""
    from usotsuki.bots.liar.calibrated import FEATURES, SIMPLE, features, simple_features
    from usotsuki.odds_liar import able_before_play

    checked = 0
    for players, rules_text in ((4, ""), (2, "all")):
        rules = parse_rules_text(rules_text, players)
        hands, stock = deal(rules, random.Random(players))
        state = new_game(rules, hands, stock, players)
        bots = [make_bot("liar", "x-always-lie" if s == 0 else "hard") for s in range(players)]
        rng = random.Random(3)
        for _ in range(120):
            seat = state.to_move
            if seat is None:
                break
            v = view(state, seat)
            full, able = features(v), able_before_play(v)
            if full is not None and able is not None:
                mine = simple_features(v, able)
                assert mine == pytest.approx([full[FEATURES.index(f)] for f in SIMPLE])
                checked += 1
            state = push(state, bots[seat].act(v, legal_summary(state), rng))
    assert checked >= 20


def test_normal_doubts_a_caught_liar_more_readily() -> None:
    """``normal``'s caught-liar trigger (``Weights.record``): a doubt of a player whose
    doubted plays were lies more often than truthful costs ``record`` cards less per lie
    beyond its truthful ones; a record of as many truths as lies changes nothing, and the
    levels without the trigger (``hard``) are unchanged."""
    from dataclasses import replace

    from usotsuki.bots.liar.levels import NORMAL_WEIGHTS, LevelBot

    assert NORMAL_WEIGHTS.record > 0.0 and Weights().record == 0.0
    state, v, lie, truth = _second_play()
    legal = legal_summary(state)
    fixed = LevelBot("fixed", lambda _: 0.5, NORMAL_WEIGHTS)  # one belief for every record

    def doubt_cost(bot: LevelBot, doubts: tuple[DoubtResult, ...]) -> float:
        return next(c for c, a in bot.options(replace(v, doubts=doubts), legal) if a == DOUBT)

    base = doubt_cost(fixed, ())
    r = NORMAL_WEIGHTS.record
    assert doubt_cost(fixed, (lie, lie)) == pytest.approx(base - 2 * r)
    assert doubt_cost(fixed, (lie, lie, truth)) == pytest.approx(base - r)
    assert doubt_cost(fixed, (lie, truth)) == pytest.approx(base)
    plain = LevelBot("plain", lambda _: 0.5, replace(NORMAL_WEIGHTS, record=0.0))
    assert doubt_cost(plain, (lie, lie)) == pytest.approx(base)
    normal = make_bot("liar", "normal")
    shares = []
    for doubts in ((), (lie, lie)):
        w = replace(v, doubts=doubts)
        shares.append(sum(normal.act(w, legal, random.Random(i)) == DOUBT for i in range(200)))
    assert shares[1] > shares[0] + 100


def test_the_fitting_population_includes_players_who_lie_more() -> None:
    """``lie-NN`` is hard lying in NN% of its truthful plays (liar_fit.fit_bot)."""
    records = collect([("lie-100", "normal")], [""], 2, seed=1, turn_limit=80)
    mine = [r for r in records if r.level == "lie-100"]
    assert mine and {r.level for r in records} == {"lie-100", "normal"}
    assert sum(r.truthful for r in mine) < len(mine) / 4  # truthful only when no lie is left
    assert collect([("lie-100", "normal")], [""], 2, seed=1, turn_limit=80) == records
    with pytest.raises(ValueError, match="unknown liar bot"):
        collect([("nobody", "normal")], [""], 1, seed=1)


def test_the_fitting_population_includes_players_who_lie_at_their_leads() -> None:
    """``lead-NN`` is hard lying in NN% of its truthful leads alone (as expert-v1 lies in
    about half of its leads), and every line-up plays under every rule set."""
    records = collect([("lead-100", "normal")], [""], 2, seed=1, turn_limit=80)
    leading = FEATURES.index("leading")
    mine = [r for r in records if r.level == "lead-100" and r.x is not None]
    leads = [r for r in mine if r.x is not None and r.x[leading] == 1.0]
    others = [r for r in mine if r.x is not None and r.x[leading] == 0.0]
    assert leads and others
    assert sum(r.truthful for r in leads) < len(leads) / 4
    assert sum(r.truthful for r in others) > len(others) / 2  # hard's own plays
    two = [("a", "b"), ("c", "d")]
    games = [game_of(two, ["", "all"], g) for g in range(4)]
    assert [(sorted(names), text) for names, text in games] == [
        (["a", "b"], ""), (["c", "d"], ""), (["a", "b"], "all"), (["c", "d"], "all")]
    assert games[1][0] == ["d", "c"]  # seats rotated by g


# -- hints -----------------------------------------------------------------------------------


def test_hint_lines_say_both_numbers_in_both_languages() -> None:
    lines = TruthHint(0.93, 0.085).lines()
    assert lines == ["0.93 given how people play (人の打ち方を踏まえると)",
                     "0.09 from the cards alone (カードだけから計算すると)"]
    assert TruthHint(None, 0.5).lines() == ["0.50 from the cards alone (カードだけから計算すると)"]


def test_browser_messages_label_both_numbers_in_both_languages() -> None:
    for lang in ("en", "ja"):
        text = (STATIC / "messages" / f"{lang}.js").read_text(encoding="utf-8")
        for key in ("calibrated", "odds"):
            found = re.search(rf'"hint\.{key}": "([^"]+)"', text)
            assert found is not None and found.group(1) == LABELS[key][lang]
        assert '"hint.heading"' in text
    assert "hintEl" in (STATIC / "table.js").read_text(encoding="utf-8")


def test_server_hint_payload_only_for_the_seat_to_move() -> None:
    from usotsuki.server.games import hint_json
    from usotsuki.session import LiarSession

    session = LiarSession.create(LiarRules(players=3), seed=1)
    rng = random.Random(2)
    while session.chance_due:
        session, _ = session.deal(session.draw_chance(rng))
    seat = session.to_move
    assert seat is not None
    assert hint_json(session, seat) is None  # a lead: no claim to judge
    session, _ = session.apply(make_bot("liar", "hard").act(session.view(seat),
                                                             session.legal(), rng))
    mover = session.to_move
    assert mover is not None
    payload = hint_json(session, mover)
    assert payload is not None and set(payload) == {"calibrated", "odds"}
    assert 0.0 <= payload["odds"] <= 1.0 and 0.0 <= payload["calibrated"] <= 1.0
    assert all(hint_json(session, s) is None for s in (None, *range(3)) if s != mover)


def test_bluff_hint_shows_a_calibrated_number_only_when_one_was_fitted() -> None:
    from usotsuki.bluff import BluffRules
    from usotsuki.bots.bluff.hints import bluff_truth_hint, calibration_fitted
    from usotsuki.session import BluffSession

    session = BluffSession.create(BluffRules(players=3))
    rng = random.Random(4)
    while session.chance_due:
        session, _ = session.deal(session.draw_chance(rng))
    seat = session.to_move
    assert seat is not None
    assert bluff_truth_hint(session.view(seat)) is None  # no call yet
    session, _ = session.apply(session.legal()[0])
    hint = bluff_truth_hint(session.view(session.to_move))
    assert hint is not None and hint.odds is not None
    assert (hint.calibrated is not None) == calibration_fitted()
    assert len(hint.lines()) == (2 if calibration_fitted() else 1)


def _lead(players: int, truthful: bool, seed: int) -> LiarState:
    """A seeded game after the first seat's one-card lead, truthful or a lie, passed
    round by every seat but the last before the leader (heads-up: none)."""
    rules = LiarRules(players=players)
    hands, stock = deal(rules, random.Random(seed))
    state = new_game(rules, hands, stock, seed)
    seat = state.to_move
    assert seat is not None
    card = state.hands[seat][0]
    rate = CARD_RATE[card] if truthful else (CARD_RATE[card] + 1) % 13
    state = push(state, Play((card,), rate))
    while (state.to_move + 1) % players != seat:  # type: ignore[operator]
        state = push(state, PASS)
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_a_doubt_of_a_one_card_field_weakly_dominates_the_pass_that_ends_the_lap(
        players: int) -> None:
    """``pass_dominated``: on a truthful one-card play, the pass that brings the turn back
    to its player and a doubt leave the same hands, stock and leader (L7, L8, L9: the
    doubter draws the card the passer would have drawn); on a lie the player draws and
    the doubter leads. So the expert keeps the doubt and drops the pass there."""
    from usotsuki.bots.liar.search import pass_dominated

    for seed in range(5):
        truth = _lead(players, True, seed)
        me = truth.to_move
        assert me is not None and pass_dominated(view(truth, me))
        passed, doubted = push(truth, PASS), push(truth, DOUBT)
        assert passed.hands == doubted.hands and passed.stock == doubted.stock
        assert passed.to_move == doubted.to_move == truth.field[-1].seat
        lie = _lead(players, False, seed)
        caught = push(lie, DOUBT)
        leader = lie.field[-1].seat
        assert len(caught.hands[leader]) == len(lie.hands[leader]) + 1
        assert caught.to_move == me
        expert = make_bot("liar", "expert")
        expert.settings = expert.settings._replace(playouts=16, horizon=8)  # type: ignore[attr-defined]
        legal = legal_summary(truth)
        assert all(expert.act(view(truth, me), legal, random.Random(i)) != PASS
                   for i in range(3))
    if players == 4:  # a pass that leaves the lap open is not dominated
        rules = LiarRules(players=4)
        hands, stock = deal(rules, random.Random(0))
        state = new_game(rules, hands, stock, 0)
        seat = state.to_move
        assert seat is not None
        state = push(state, Play((state.hands[seat][0],), CARD_RATE[state.hands[seat][0]]))
        assert not pass_dominated(view(state, state.to_move))  # type: ignore[arg-type]
