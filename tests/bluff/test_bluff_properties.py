"""Hypothesis properties of Bluff over random legal games (STYLE.md "Testing habits").

A game is drawn as (players 2..8, max_cards within B2, dealer, seed); the seed drives a
private ``random.Random`` that deals (B3) and picks among ``legal_actions``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import string
from typing import Any

from bluff_support import ALL_326, DECK, OracleGame, part5, strength
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from usotsuki.bluff import (
    ALL_CALLS,
    CHALLENGE,
    Action,
    BluffRules,
    BluffState,
    apply,
    format_action,
    info_key,
    legal_actions,
    new_game,
    parse_action,
    start_round,
    view,
)
from usotsuki.bluff.deal import deal_hands
from usotsuki.bluff.record import replay, replay_report, write_record
from usotsuki.cards import parse_card
from usotsuki.core.errors import IllegalAction, InvalidDeal, InvalidNotation
from usotsuki.replay import replay_record

EVERY_ACTION: tuple[Action, ...] = (*ALL_CALLS, CHALLENGE)
MAX_STEPS = 5000  # a bound far above any game: 52 losses at most, 327 actions per round


@st.composite
def game_setups(draw: st.DrawFn) -> tuple[BluffRules, int]:
    players = draw(st.integers(2, 8))
    max_cards = draw(st.integers(1, 52 // players))
    dealer = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    return BluffRules(players=players, max_cards=max_cards, dealer=dealer), seed


def choose(state: BluffState, rng: random.Random) -> Action:
    """A mixed policy: often a small raise, sometimes a challenge, sometimes anything."""
    legal = legal_actions(state)
    roll = rng.random()
    if legal[-1] == CHALLENGE and roll < 0.3:
        return CHALLENGE
    if roll < 0.75:
        return rng.choice(legal[:4])
    return rng.choice(legal)


def play(rules: BluffRules, seed: int, burn: bool = False) -> list[BluffState]:
    """Every state of one game, the start included. ``burn`` spends global ``random``."""
    rng = random.Random(seed)
    state = new_game(rules)
    states = [state]
    for _ in range(MAX_STEPS):
        if burn:
            random.seed(random.random())  # spend and reseed the global generator only
            random.shuffle(list(range(9)))
            random.getrandbits(64)
        if state.is_over:
            return states
        if state.needs_deal:
            state = start_round(state, deal_hands(state, rng)).state
        else:
            state = apply(state, choose(state, rng)).state
        states.append(state)
    raise AssertionError("the game did not end")


def hands_text(state: BluffState) -> list[list[str]]:
    assert state.hands is not None
    return [[str(c) for c in hand] for hand in state.hands]


FAST = settings(max_examples=80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


# --- Games end; calls rise; standings are complete ---------------------------------------


@FAST
@given(game_setups())
def test_property_games_end_with_standings_a_permutation_of_the_seats(setup: Any) -> None:
    rules, seed = setup
    final = play(rules, seed)[-1]
    standings = final.standings
    assert final.is_over and standings is not None
    assert all(len(place) == 1 for place in standings)  # B12: one seat per place
    assert sorted(s for place in standings for s in place) == list(range(rules.players))
    assert list(reversed(final.eliminated)) == [p[0] for p in standings[1:]]
    assert legal_actions(final) == ()


@FAST
@given(game_setups())
def test_property_every_call_is_strictly_stronger_than_the_last_in_its_round(
        setup: Any) -> None:
    rules, seed = setup
    final = play(rules, seed)[-1]
    for result in final.results:
        levels = [strength(str(call)) for _, call in result.calls]
        assert all(a < b for a, b in zip(levels, levels[1:], strict=False))
        assert result.call == result.calls[-1][1] and result.caller == result.calls[-1][0]


@FAST
@given(game_setups())
def test_property_replay_agrees_with_an_independent_reading_of_the_rules(setup: Any) -> None:
    rules, seed = setup
    states = play(rules, seed)
    oracle = OracleGame(rules.players, rules.max_cards, rules.dealer)
    for before, after in zip(states, states[1:], strict=False):
        if before.needs_deal:
            oracle.deal(hands_text(after))
        else:
            # the action is the last call, or the challenge that ended the round
            action = (str(after.calls[-1][1]) if after.hands is not None and after.calls
                      else "challenge")
            assert oracle.to_move == before.to_move
            assert oracle.legal() == [str(a) for a in legal_actions(before)]
            oracle.act(action)
    assert part5(replay_report(write_record(states[-1]))) == oracle.report()


# --- Records replay every state and every view -------------------------------------------


@FAST
@given(game_setups(), st.data())
def test_property_written_record_replays_every_state_and_view(setup: Any,
                                                             data: st.DataObject) -> None:
    rules, seed = setup
    states = play(rules, seed)
    picks = {0, len(states) - 1, *data.draw(st.lists(st.integers(0, len(states) - 1),
                                                     max_size=8))}
    for k in sorted(picks):
        state = states[k]
        rec = write_record(state)
        rec = json.loads(json.dumps(rec))  # through JSON text, as a file would be
        outcome = replay(rec)
        assert outcome.ok and outcome.state == state
        for seat in range(rules.players):
            assert view(outcome.state, seat) == view(state, seat)
        assert view(outcome.state, None) == view(state, None)
        assert write_record(outcome.state) == rec


# --- Views keep secrets ------------------------------------------------------------------


@FAST
@given(game_setups(), st.data())
def test_property_view_never_holds_another_seats_cards(setup: Any,
                                                       data: st.DataObject) -> None:
    rules, seed = setup
    states = [s for s in play(rules, seed) if s.hands is not None]
    state = data.draw(st.sampled_from(states))
    assert state.hands is not None
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for seat in range(rules.players):
        mine = state.hands[seat]
        others = [c for c in range(52) if c not in mine]
        rng.shuffle(others)
        new_hands = []
        for s, hand in enumerate(state.hands):
            if s == seat:
                new_hands.append(hand)
            else:
                new_hands.append(tuple(sorted(parse_card(DECK[c]) for c in
                                              others[:len(hand)])))
                others = others[len(hand):]
        changed = dataclasses.replace(state, hands=tuple(new_hands))
        assert view(changed, seat) == view(state, seat)
        assert info_key(view(changed, seat)) == info_key(view(state, seat))
        assert view(state, seat).hand == mine
        assert view(changed, None) == view(state, None)
        assert view(state, None).hand is None


# --- Legal and illegal actions -----------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(game_setups())
def test_property_legal_actions_apply_and_illegal_ones_raise_leaving_state(
        setup: Any) -> None:
    rules, seed = setup
    for state in play(rules, seed)[::3]:
        # Between rounds legal_actions lists the next round's openings (Part 5), which
        # apply only once the round is dealt: nothing applies before the deal.
        legal = set(legal_actions(state)) if state.hands is not None else set()
        snapshot = dataclasses.replace(state)
        for action in EVERY_ACTION:
            if action in legal:
                assert apply(state, action).state is not state
            else:
                try:
                    apply(state, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{action} applied but is not legal")
            assert state == snapshot


@FAST
@given(game_setups(), st.data())
def test_property_only_due_deals_of_right_sizes_are_accepted(setup: Any,
                                                             data: st.DataObject) -> None:
    rules, seed = setup
    states = play(rules, seed)
    state = data.draw(st.sampled_from(states))
    hands = deal_hands(dataclasses.replace(state, hands=None), random.Random(seed)) \
        if not state.is_over else ((),) * rules.players
    if state.needs_deal:
        assert start_round(state, hands).state.hands == hands
    else:
        try:
            start_round(state, hands)
        except InvalidDeal:
            pass
        else:
            raise AssertionError("a deal was accepted while none was due")


# --- Determinism -------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(game_setups())
def test_property_global_random_changes_nothing(setup: Any) -> None:
    rules, seed = setup
    calm = play(rules, seed)
    random.seed(12345)
    burnt = play(rules, seed, burn=True)
    assert calm == burnt
    assert [info_key(view(s, 0)) for s in calm] == [info_key(view(s, 0)) for s in burnt]
    assert write_record(calm[-1]) == write_record(burnt[-1])


# --- Notation ----------------------------------------------------------------------------


def test_property_notation_round_trips_over_all_326_calls() -> None:
    assert len(ALL_CALLS) == 326
    for call in ALL_CALLS:
        text = format_action(call)
        assert parse_action(text) == call and format_action(parse_action(text)) == text
    assert [format_action(c) for c in ALL_CALLS] == ALL_326


WHITESPACE = st.sampled_from([" ", "  ", "\t", "\n", "\u3000", "\r\n", " \u3000 "])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL_326 + ["challenge"]), st.data())
def test_property_tolerant_spellings_parse_to_the_same_action(canonical: str,
                                                              data: st.DataObject) -> None:
    tokens = canonical.split()
    spelled = []
    for token in tokens:
        if token == "T" and data.draw(st.booleans()):
            token = "10"
        if token in "SHDC" and len(token) == 1 and tokens[0] == "straight-flush" \
                and data.draw(st.booleans()):
            token = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[token]
        token = "".join(ch.lower() if data.draw(st.booleans()) else ch for ch in token)
        spelled.append(token)
    if tokens[0] == "two-pair" and data.draw(st.booleans()):
        spelled[1], spelled[2] = spelled[2], spelled[1]
    text = data.draw(WHITESPACE) if data.draw(st.booleans()) else ""
    for token in spelled:
        text += token + data.draw(WHITESPACE)
    assert format_action(parse_action(text)) == canonical


VOCABULARY = st.sampled_from(
    ["card", "pair", "two-pair", "three", "full-house", "four", "straight-flush", "challenge",
     "two", "full", "house", "straight", "flush", *"23456789TJQKA", "10", "1", "11", *"SHDC",
     *"shdc", "♠", "♥", "♦", "♣", ",", "-", "7H", "as", "CHALLENGE", "PAIR"])


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(), st.lists(VOCABULARY, max_size=5).map(" ".join),
                 st.lists(st.one_of(VOCABULARY, st.text(max_size=3)), max_size=4)
                 .map("\u3000".join)))
def test_property_random_text_parses_or_raises_invalid_notation(text: str) -> None:
    try:
        action = parse_action(text)
    except InvalidNotation:
        return
    assert format_action(action) in ALL_326 + ["challenge"]
    assert parse_action(format_action(action)) == action


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=4), st.text(alphabet="0123456789TJQKAtjqka10SHDCshdc♠♥♦♣ ",
                                               max_size=4)))
def test_property_random_text_is_a_card_or_invalid_notation(text: str) -> None:
    try:
        c = parse_card(text)
    except InvalidNotation:
        return
    assert parse_card(str(c)) == c and len(str(c)) == 2


# --- Replay never raises -----------------------------------------------------------------


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 60) | st.floats(allow_nan=False,
                                                                   allow_infinity=False)
    | st.text(alphabet=string.printable + "♠\u3000", max_size=12)
    | st.sampled_from(["bluff", "liar", "card 2", "challenge", "pair 7", "2S", "AS", "10h"]),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.sampled_from(["game", "players", "rules", "rounds", "hands",
                                       "actions", "max_cards", "dealer", "seed", "x"]),
                      children, max_size=5),
    max_leaves=30)


def check_report(out: dict[str, Any]) -> None:
    for key in ("game", "ok", "error", "finished", "standings", "to_move", "legal"):
        assert key in out
    assert (out["error"] is None) == out["ok"]
    json.dumps(out, ensure_ascii=False).encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_property_replay_of_arbitrary_json_never_raises(value: Any) -> None:
    check_report(replay_record(value))
    check_report(replay_report(value))


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"game": st.just("bluff"),
                              "players": st.one_of(st.integers(1, 9), JSON),
                              "rounds": st.lists(st.fixed_dictionaries(
                                  {"hands": st.lists(st.lists(st.sampled_from(DECK), max_size=3)
                                                     | JSON, max_size=4),
                                   "actions": st.lists(st.sampled_from(ALL_326[:30] +
                                                                       ["challenge"]) | JSON,
                                                       max_size=6)}), max_size=4)},
                             optional={"rules": JSON}))
def test_property_replay_of_bluff_shaped_json_never_raises(value: Any) -> None:
    out = replay_record(value)
    check_report(out)
    assert out["game"] == "bluff"


@FAST
@given(game_setups(), st.data())
def test_property_one_corrupted_element_is_located_and_never_raises(
        setup: Any, data: st.DataObject) -> None:
    rules, seed = setup
    rec = write_record(play(rules, seed)[-1])
    r = data.draw(st.integers(0, len(rec["rounds"]) - 1))
    field = data.draw(st.sampled_from(["actions", "hands"]))
    items = rec["rounds"][r][field]
    assume(items)
    i = data.draw(st.integers(0, len(items) - 1))
    junk = data.draw(JSON)
    items[i] = junk
    out = replay_record(rec)
    check_report(out)
    if not out["ok"]:
        assert out["error"]["round"] is not None
        if out["error"]["round"] > r:
            # The junk was itself a legal call ("PAIR 3"): the round went another way,
            # so a later round's hands no longer fit (B3). Only an action can do that.
            assert field == "actions" and isinstance(junk, str)
        if out["error"]["round"] == r and field == "hands":
            assert out["error"]["index"] is None
    if field == "actions" and not out["ok"] and out["error"]["index"] == i \
            and out["error"]["round"] == r:
        if junk is None or isinstance(junk, str):
            assert out["error"]["action"] == junk
        else:  # "its JSON text": any spelling of the same JSON value
            assert json.loads(out["error"]["action"]) == junk
