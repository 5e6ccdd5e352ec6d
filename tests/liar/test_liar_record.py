"""Part 4 records and the Part 5 report: seeds, fault order and location, writing."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from usotsuki.cards import DECK
from usotsuki.liar import LiarMatch, LiarRules, parse_action, replay, replay_report, write_record
from usotsuki.liar.match import deal, new_seed

THREE = [["3S", "5D", "9C"], ["4H", "6S", "TD"], ["7H", "8C", "JS"]]


def stock_for(hands: list[list[str]]) -> list[str]:
    used = {c for h in hands for c in h}
    return [str(c) for c in DECK if str(c) not in used]


def record(*actions: Any, hands: list[list[str]] = THREE, **extra: Any) -> dict[str, Any]:
    hands = copy.deepcopy(hands)  # tests mutate records
    rec: dict[str, Any] = {"game": "liar", "players": len(hands), "seed": 7,
                           "rules": {"hand_size": len(hands[0])},
                           "games": [{"hands": hands, "stock": stock_for(hands),
                                      "actions": list(actions)}]}
    rec.update(extra)
    return rec


def error(rec: Any) -> tuple[int | None, int | None, str | None]:
    report = replay_report(rec)
    assert report["ok"] is False and report["error"]["message"]
    err = report["error"]
    return err["round"], err["index"], err["action"]


# Part 4: seed ------------------------------------------------------------------------------------

FLUSH = ("play 3S as 3", "play 4H as 4", "play 7H as 7", "pass", "pass")


def flushed_stock(seed: Any) -> list[str]:
    rec = record(*FLUSH)
    if seed is not None:
        rec["seed"] = seed
    else:
        del rec["seed"]
    result = replay(rec)
    assert result.fault is None and result.state is not None
    return [str(c) for c in result.state.stock[-3:]]


def test_part4_seed_shuffles_with_random_random_exactly() -> None:
    for seed in (7, "7", 123456789012345678901234567890, -3, "", "嘘"):
        expected = ["3S", "4H", "7H"]
        random.Random(seed).shuffle(expected)
        assert flushed_stock(seed) == expected


def test_part4_seed_absent_is_zero() -> None:
    assert flushed_stock(None) == flushed_stock(0)


@pytest.mark.parametrize("seed", [None, True, 1.5, 7.0, [7], {"s": 7}])
def test_part4_seed_of_another_type_is_a_record_fault(seed: Any) -> None:
    assert error(record(seed=seed)) == (None, None, None)


# Part 5: faults, in order -----------------------------------------------------------------------

@pytest.mark.parametrize("change", [
    {"players": 9}, {"players": "3"}, {"players": None},
    {"rules": {"hand_size": 3, "multy": True}}, {"rules": {"hand_size": 0}},
    {"rules": {"hand_size": 3, "revolution": True}}, {"rules": {"six_up": True}},
    {"rules": {"hand_size": 3, "turn_limit": 0}}, {"rules": {"hand_size": 3.0}},
    {"rules": {"hand_size": 3, "multi": 1}}, {"rules": []}, {"games": []}, {"games": {}},
])
def test_part5_record_level_faults(change: dict[str, Any]) -> None:
    assert error(record(**change)) == (None, None, None)


def test_part5_record_faults_come_before_game_faults() -> None:
    rec = record(players=9)
    rec["games"][0]["hands"] = [["3S"]]
    assert error(rec) == (None, None, None)
    assert error({"game": "liar", "players": 3}) == (None, None, None)


def test_part5_rules_may_be_absent_or_null() -> None:
    hands = [[str(c) for c in DECK[i * 9:(i + 1) * 9]] for i in range(3)]
    for rules in (None, "absent"):
        rec = record(hands=hands)
        if rules is None:
            rec["rules"] = None
        else:
            del rec["rules"]
        assert replay_report(rec)["ok"] is True


@pytest.mark.parametrize("change", [
    lambda g: g["hands"].pop(),
    lambda g: g["hands"][0].pop(),
    lambda g: g["hands"][0].__setitem__(0, "3X"),
    lambda g: g["hands"][0].__setitem__(0, "4H"),
    lambda g: g["stock"].pop(),
    lambda g: g["stock"].append("3S"),
    lambda g: g.pop("stock"),
    lambda g: g.pop("actions"),
    lambda g: g.__setitem__("actions", "pass"),
    lambda g: g["hands"].__setitem__(1, "4H 6S TD"),
])
def test_part5_deal_faults_have_the_game_and_no_index(change: Any) -> None:
    rec = record("pass")
    change(rec["games"][0])
    assert error(rec) == (0, None, None)


def test_part5_an_illegal_action_is_located() -> None:
    rec = record("play 3S as 3", "play 4H as 2", "play 7H as 5")
    assert error(rec) == (0, 2, "play 7H as 5")
    report = replay_report(rec)
    assert report["to_move"] == 2 and report["finished"] is False
    assert report["games"][0]["field_size"] == 2  # after the last legal action


@pytest.mark.parametrize("action, written", [
    (7, "7"), (None, None), (["pass"], '["pass"]'), ({"a": 1}, '{"a": 1}'),
    ("play 3S as", "play 3S as"), ("", ""),
])
def test_part5_a_bad_action_is_reported_as_written(action: Any, written: str | None) -> None:
    assert error(record("play 3S as 3", action)) == (0, 1, written)


def test_part5_a_second_game_without_o7_is_found_at_its_deal() -> None:
    rec = record("play 3S as 3", "pass", "pass", "play 5D as 5", "pass", "pass",
                 "play 9C as 9", "accept")
    game = copy.deepcopy(rec["games"][0])
    rec["games"].append(game)
    assert error(rec) == (1, None, None)
    report = replay_report(rec)
    assert report["finished"] is True and report["standings"] == [[0], [1, 2]]
    assert len(report["games"]) == 1 and report["to_move"] is None


def test_part5_every_game_but_the_last_must_end() -> None:
    hands = [["4H", "6S", "TD"], ["5D", "QS", "AD"], ["3S", "9C", "KC"], ["7H", "8C", "JS"]]
    rec = record("play 3S as 9", hands=hands, rules={"hand_size": 3, "classes": True})
    rec["games"].append(copy.deepcopy(rec["games"][0]))
    assert error(rec) == (0, None, None)
    report = replay_report(rec)
    assert report["games"] == [] and report["finished"] is False and report["legal"] is None


def test_part5_actions_after_the_end_are_illegal() -> None:
    rec = record("play 3S as 3", "pass", "pass", "play 5D as 5", "pass", "pass",
                 "play 9C as 9", "accept", "pass")
    assert error(rec) == (0, 8, "pass")
    assert replay_report(rec)["finished"] is True


def test_part5_not_a_liar_record() -> None:
    report = replay_report({"game": "bluff", "players": 3, "rounds": []})
    assert report["ok"] is False and report["game"] == "bluff"
    for bad in (None, [], "liar", {"game": "poker"}, {}):
        report = replay_report(bad)
        assert report["ok"] is False and report["game"] is None


def test_part5_give_is_true_while_an_exchange_is_owed() -> None:
    hands = [["4H", "6S", "TD"], ["5D", "QS", "AD"], ["3S", "9C", "KC"], ["7H", "8C", "JS"]]
    rec = record("play 3S 9C KC as 9", "accept", hands=hands,
                 rules={"hand_size": 3, "multi": True, "classes": True})
    second = [["5H", "KD", "9S"], ["2C", "AH", "4C"], ["3S", "6D", "8D"], ["7S", "TC", "JD"]]
    rec["games"].append({"hands": second, "stock": stock_for(second), "actions": []})
    report = replay_report(rec)
    assert report["ok"] and report["to_move"] == 2 and not report["finished"]
    assert report["legal"] == {"pass": False, "doubt": False, "accept": False, "give": True,
                               "play": None}


# Writing --------------------------------------------------------------------------

def test_write_record_replays_to_the_same_state() -> None:
    rules = LiarRules(players=3, multi=True, jack_back=True, turn_limit=40)
    rng = random.Random(5)
    hands, stock = deal(rules, rng)
    match, events = LiarMatch.start(rules, hands, stock, seed=new_seed(), names=["a", "b", "c"])
    assert len(events) == 3 and all(e.audience == frozenset({i}) for i, e in enumerate(events))
    from usotsuki.liar import random_action
    while not match.state.is_over:
        match, _ = match.apply(random_action(match.state, rng))
    rec = json.loads(json.dumps(write_record(match)))
    assert rec["players"] == ["a", "b", "c"] and rec["rules"]["turn_limit"] == 40
    result = replay(rec)
    assert result.fault is None and result.state == match.state
    assert replay_report(rec)["finished"] is True


def test_new_seed_is_secret_and_varied() -> None:
    assert len({new_seed() for _ in range(8)}) == 8


# Never raises --------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False)
    | st.text(max_size=6) | st.sampled_from(["liar", "pass", "3S", "play 3S as 3", "games"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["game", "players", "rules", "seed", "games", "hands", "stock",
                         "actions", "multi", "hand_size"]), inner, max_size=5),
    max_leaves=20)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_part5_never_raises_on_any_json(value: Any) -> None:
    report = replay_report(value)
    assert report["ok"] is False or report["error"] is None
    assert "internal error" not in json.dumps(report)


@settings(max_examples=200)
@given(st.data())
def test_part5_never_raises_on_a_mutated_record(data: st.DataObject) -> None:
    rec = record("play 3S as 3", "play 4H as 4", "pass", "doubt", "play 5D as 5")
    path: list[Any] = []
    node: Any = rec
    while isinstance(node, dict | list) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                        else range(len(node))))
        path.append(key)
        node = node[key]
    if not path:
        return
    parent = rec
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = data.draw(json_values)
    report = replay_report(rec)
    assert "internal error" not in json.dumps(report)
    if report["ok"]:
        for text in rec["games"][0]["actions"]:
            parse_action(text)
