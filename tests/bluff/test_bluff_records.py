"""Bluff records (RULES.md Part 4) and the ``replay --json`` object (Part 5).

Every fault is located as Part 5 says: faults of the whole record have ``round`` and
``index`` null; faults of a deal, of a round that ends too early and of a round after the
end have the round and ``index`` null; faults of an action have both, and ``action`` as
written (its JSON text when it is not a string, null for a JSON null).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from bluff_support import ALL_326, record, rnd

from usotsuki.bluff.record import replay, replay_report, write_record
from usotsuki.replay import replay_bytes, replay_file, replay_record

H3 = [["2S"], ["3S"], ["4S"]]
GOOD = record(3, [rnd(H3, "card A", "challenge")])


def run(value: Any) -> dict[str, Any]:
    """Replay a parsed JSON value the way the command line does (either game)."""
    return replay_record(value)


def run_bytes(data: bytes) -> dict[str, Any]:
    return replay_bytes(data)


def assert_whole_record_fault(out: dict[str, Any], game: str | None = "bluff") -> None:
    assert out["game"] == game and out["ok"] is False
    assert out["error"]["round"] is None and out["error"]["index"] is None
    assert out["error"]["action"] is None
    assert isinstance(out["error"]["message"], str) and out["error"]["message"]
    assert out["finished"] is False and out["standings"] is None
    assert out["to_move"] is None and out["legal"] is None
    if game == "bluff":
        assert out["rounds"] == []


def assert_fault_at(out: dict[str, Any], round: int | None, index: int | None,
                    action: Any = None) -> None:
    assert out["ok"] is False, out
    error = out["error"]
    assert (error["round"], error["index"], error["action"]) == (round, index, action), error
    assert isinstance(error["message"], str) and error["message"]


# --- A well-formed record ----------------------------------------------------------------


def test_part4_example_of_the_rule_book_replays() -> None:
    example = {"game": "bluff", "players": 4, "rules": {"max_cards": 5, "dealer": 0},
               "rounds": [{"hands": [["7S"], ["QD"], ["7H"], ["2C"]],
                           "actions": ["card 7", "pair 7", "three 7", "challenge"]}]}
    out = run(example)
    assert out["ok"] and out["error"] is None and not out["finished"]
    # seat 1 card 7, seat 2 pair 7, seat 3 three 7 (false: two 7s), seat 0 challenges
    assert out["rounds"] == [{**out["rounds"][0], "caller": 3, "challenger": 0,
                              "call": "three 7", "call_true": False, "loser": 3,
                              "eliminated": False}]
    assert out["to_move"] == 0 and out["legal"] == ALL_326


def test_part4_rules_may_be_absent_or_null_and_keys_default() -> None:
    for rules in ({}, None, {"max_cards": 5}, {"dealer": 0}):
        rec = {**GOOD, "rules": rules}
        assert run(rec)["ok"], rules
    assert run(GOOD)["ok"]


def test_part4_unknown_top_level_keys_are_ignored() -> None:
    out = run({**GOOD, "comment": "hello", "seed": None, "version": [1, 2]})
    assert out["ok"] and out == run(GOOD)


@pytest.mark.parametrize("seed", [None, "x", 7, 1.5, [1]])
def test_part4_seed_in_a_bluff_record_is_an_ignored_unknown_key(seed: Any) -> None:
    assert run({**GOOD, "seed": seed}) == run(GOOD)


def test_part4_players_as_names_count_the_seats() -> None:
    out = run(record(["Ann", "Bo", "Cy"], [rnd(H3, "card A", "challenge")]))
    assert out == run(GOOD)
    state = replay(record(["Ann", "Bo"], [])).state
    assert state is not None and state.players == 2


def test_part4_record_with_no_rounds_waits_for_the_first_call() -> None:
    out = run(record(4, [], dealer=3))
    assert out["ok"] and out["to_move"] == 0 and out["legal"] == ALL_326
    assert out["finished"] is False and out["standings"] is None and out["rounds"] == []


def test_part4_last_round_may_stop_early() -> None:
    out = run(record(3, [rnd(H3, "card A", "challenge"), rnd([["2S"], ["3S", "3H"], ["4S"]],
                                                              "card 2")]))
    assert out["ok"] and out["to_move"] == 0  # seat 2 called first, seat 0 answers
    assert out["legal"] == ALL_326[ALL_326.index("card 3"):] + ["challenge"]
    assert len(out["rounds"]) == 1


def test_part4_last_round_may_have_no_actions() -> None:
    out = run(record(3, [rnd(H3)]))
    assert out["ok"] and out["to_move"] == 1 and out["legal"] == ALL_326


def test_part4_hands_use_the_tolerant_card_notation() -> None:
    out = run(record(3, [rnd([["10s"], ["j♠"], ["Q\u2665"]], "card T", "challenge")]))
    assert out["ok"] and out["rounds"][0]["call_true"] is True


# --- Part 4: the record as a whole -------------------------------------------------------


@pytest.mark.parametrize("rules", [{"max_card": 5}, {"Dealer": 0}, {"max_cards": 5, "x": 1},
                                   {"multi": False}, {"seed": 1}])
def test_part4_unknown_rule_key_is_an_error(rules: dict[str, Any]) -> None:
    out = run({**GOOD, "rules": rules})
    assert_whole_record_fault(out)
    assert any(key in out["error"]["message"] for key in rules)


@pytest.mark.parametrize("rules", [{"max_cards": True}, {"max_cards": False},
                                   {"dealer": True}, {"dealer": False}])
def test_part4_bool_where_an_integer_is_expected_is_an_error(rules: dict[str, Any]) -> None:
    assert_whole_record_fault(run({**GOOD, "rules": rules}))


@pytest.mark.parametrize("text", ['"players": 3.0', '"players": 3e0', '"players": 3E0',
                                  '"players": 30e-1', '"players": true',
                                  '"rules": {"max_cards": 5.0}', '"rules": {"dealer": 0.0}',
                                  '"rules": {"dealer": 1e0}', '"rules": {"max_cards": "5"}',
                                  '"rules": {"dealer": null}', '"players": "3"'])
def test_part4_integers_have_no_fraction_or_exponent(text: str) -> None:
    data = '{"game": "bluff", "players": 3, "rounds": [], ' + text + "}"
    assert_whole_record_fault(run_bytes(data.encode()))


@pytest.mark.parametrize("players", [0, 1, 9, -3, 100, [], ["solo"], ["a"] * 9])
def test_part4_players_out_of_range_is_an_error(players: Any) -> None:
    assert_whole_record_fault(run(record(players, [])))


@pytest.mark.parametrize("players", [["a", 2, "c"], ["a", None], [["a"], ["b"]], {"a": 1}])
def test_part4_player_names_must_be_strings(players: Any) -> None:
    assert_whole_record_fault(run(record(players, [])))


def test_part4_players_must_be_present() -> None:
    assert_whole_record_fault(run({"game": "bluff", "rounds": []}))


@pytest.mark.parametrize(("players", "max_cards"), [(8, 7), (2, 27), (6, 9), (3, 18)])
def test_part4_max_cards_times_players_over_52_is_an_error(players: int, max_cards: int) -> None:
    out = run(record(players, [], max_cards=max_cards))
    assert_whole_record_fault(out)
    assert "52" in out["error"]["message"]
    assert run(record(players, [], max_cards=52 // players))["ok"]


@pytest.mark.parametrize("rules", [[], "max_cards", 5, True])
def test_part4_rules_must_be_an_object(rules: Any) -> None:
    assert_whole_record_fault(run({**GOOD, "rules": rules}))


@pytest.mark.parametrize("rounds", [None, {}, "[]", 0])
def test_part4_rounds_must_be_a_list(rounds: Any) -> None:
    assert_whole_record_fault(run({**GOOD, "rounds": rounds}))


def test_part4_rounds_must_be_present() -> None:
    rec = dict(GOOD)
    del rec["rounds"]
    assert_whole_record_fault(run(rec))


@pytest.mark.parametrize("game", ["Bluff", "BLUFF", " bluff", "poker", "", None, 1, ["bluff"]])
def test_part4_unknown_game_has_game_null(game: Any) -> None:
    assert_whole_record_fault(run({**GOOD, "game": game}), game=None)


def test_part4_missing_game_has_game_null() -> None:
    rec = dict(GOOD)
    del rec["game"]
    assert_whole_record_fault(run(rec), game=None)


@pytest.mark.parametrize("value", [None, [], [GOOD], "bluff", 3, True])
def test_part4_a_record_is_one_json_object(value: Any) -> None:
    assert_whole_record_fault(run(value), game=None)


def test_part5_whole_record_faults_in_order_players_rules_rounds() -> None:
    bad_players = {"game": "bluff", "players": 9, "rules": {"typo": 1}, "rounds": 5}
    assert "players" in run(bad_players)["error"]["message"]
    bad_rules = {"game": "bluff", "players": 3, "rules": {"typo": 1}, "rounds": 5}
    assert "typo" in run(bad_rules)["error"]["message"]
    bad_rounds = {"game": "bluff", "players": 3, "rules": {}, "rounds": 5}
    assert "rounds" in run(bad_rounds)["error"]["message"]


# --- Part 4: deals -----------------------------------------------------------------------


def between_round0_and_1(out: dict[str, Any]) -> None:
    """The state after GOOD's round 0: seat 1 lost, seat 2 calls first."""
    assert out["finished"] is False and out["standings"] is None
    assert out["to_move"] == 2 and out["legal"] == ALL_326
    assert [r["call"] for r in out["rounds"]] == ["card A"]


BAD_DEALS = {
    "hand of the wrong size": [["2S"], ["3S"], ["4S"]],  # seat 1 must hold 2
    "hand too big": [["2S", "2H"], ["3S", "3H"], ["4S"]],
    "card twice": [["2S"], ["3S", "2S"], ["4S"]],
    "card twice in one hand": [["2S"], ["3S", "3S"], ["4S"]],
    "card twice in two notations": [["TS"], ["3S", "10s"], ["4S"]],
    "bad card": [["2S"], ["3S", "1H"], ["4S"]],
    "card in two tokens": [["2S"], ["3S", "3 H"], ["4S"]],
    "card not text": [["2S"], ["3S", 33], ["4S"]],
    "card null": [["2S"], ["3S", None], ["4S"]],
    "too few hands": [["2S"], ["3S", "3H"]],
    "too many hands": [["2S"], ["3S", "3H"], ["4S"], []],
    "hand not a list": [["2S"], "3S 3H", ["4S"]],
    "hand null": [["2S"], None, ["4S"]],
}


@pytest.mark.parametrize("name", list(BAD_DEALS))
def test_part4_bad_deal_is_a_fault_of_its_round(name: str) -> None:
    out = run(record(3, [rnd(H3, "card A", "challenge"), rnd(BAD_DEALS[name], "card 2")]))
    assert_fault_at(out, 1, None)
    between_round0_and_1(out)


def test_part4_bad_deal_in_round_0_reports_the_game_before_its_first_call() -> None:
    # As the conformance sample bluff_duplicate_card: the game waiting for round 0.
    out = run(record(3, [rnd([["2S"], ["4S"], ["4S"]])]))
    assert_fault_at(out, 0, None)
    assert out["finished"] is False and out["to_move"] == 1 and out["legal"] == ALL_326
    assert out["rounds"] == []


def test_part4_eliminated_seats_hand_must_be_empty() -> None:
    round0 = rnd(H3, "card A", "challenge")  # seat 1 out with max_cards 1
    out = run(record(3, [round0, rnd([["2S"], ["3S"], ["4S"]], "card 2")], max_cards=1))
    assert_fault_at(out, 1, None)
    assert out["rounds"][0]["eliminated"] is True and out["to_move"] == 2
    assert run(record(3, [round0, rnd([["2S"], [], ["4S"]], "card 2")], max_cards=1))["ok"]


@pytest.mark.parametrize("entry", [
    None, [], "round", {"actions": []}, {"hands": [["2S"], ["3S"], ["4S"]]},
    {"hands": None, "actions": []}, {"hands": [["2S"], ["3S"], ["4S"]], "actions": None},
    {"hands": [["2S"], ["3S"], ["4S"]], "actions": "card 2"},
])
def test_part4_round_needs_hands_and_actions_lists(entry: Any) -> None:
    out = run(record(3, [entry]))
    assert_fault_at(out, 0, None)
    assert out["to_move"] == 1 and out["rounds"] == []


# --- Part 4/5: actions -------------------------------------------------------------------


@pytest.mark.parametrize(("value", "written"), [
    (5, "5"), (5.0, "5.0"), (True, "true"), (False, "false"), ([], "[]"), ({}, "{}"),
    (-1, "-1"),
])
def test_part5_non_string_action_gives_its_json_text(value: Any, written: str) -> None:
    out = run(record(3, [rnd(H3, "card 2", value)]))
    assert_fault_at(out, 0, 1, written)
    assert out["to_move"] == 2  # after the last legal action


@pytest.mark.parametrize("value", [["pair", "7"], {"call": "pair 7"}, [1, [2, {"a": None}]],
                                   ["\u2660"]])
def test_part5_non_string_action_json_text_of_a_container(value: Any) -> None:
    # "its JSON text": the spacing of a list or object is not fixed by RULES.md, so only
    # the value it spells is pinned.
    out = run(record(3, [rnd(H3, "card 2", value)]))
    action = out["error"]["action"]
    assert isinstance(action, str) and json.loads(action) == value
    assert (out["error"]["round"], out["error"]["index"]) == (0, 1)


def test_part5_null_action_gives_null() -> None:
    out = run(record(3, [rnd(H3, "card 2", None)]))
    assert_fault_at(out, 0, 1, None)
    assert out["to_move"] == 2 and out["legal"][-1] == "challenge"


@pytest.mark.parametrize("written", ["  Pear 7 ", "pair 7 7", "", "\u3000", "two pair K 8",
                                     "card 2", "CARD 2", " card\t2 ", "challenge now"])
def test_part5_bad_action_is_reported_as_written(written: str) -> None:
    out = run(record(3, [rnd(H3, "card 2", written)]))  # card 2 again is not stronger
    assert_fault_at(out, 0, 1, written)


def test_part5_challenge_as_first_action_is_illegal() -> None:
    out = run(record(3, [rnd(H3, "challenge")]))
    assert_fault_at(out, 0, 0, "challenge")
    assert out["to_move"] == 1 and out["legal"] == ALL_326


def test_part5_action_after_the_rounds_challenge_is_an_error_at_it() -> None:
    rounds = [rnd(H3, "card A", "challenge", "card 2"),
              rnd([["2S"], ["3S", "3H"], ["4S"]], "card 2")]
    out = run(record(3, rounds))
    assert_fault_at(out, 0, 2, "card 2")
    between_round0_and_1(out)


def test_part5_action_after_the_challenge_of_the_last_round_is_an_error_at_it() -> None:
    out = run(record(3, [rnd(H3, "card A", "challenge", "challenge")]))
    assert_fault_at(out, 0, 2, "challenge")
    between_round0_and_1(out)


def test_part5_action_after_the_game_ended_is_an_error_at_it() -> None:
    out = run(record(2, [rnd([["2S"], ["3S"]], "card A", "challenge", 7)], max_cards=1))
    assert_fault_at(out, 0, 2, "7")
    assert out["finished"] is True and out["standings"] == [[0], [1]]
    assert out["to_move"] is None and out["legal"] is None and len(out["rounds"]) == 1


def test_part5_round_after_the_game_ended_is_a_fault_of_that_round() -> None:
    rounds = [rnd([["2S"], ["3S"]], "card A", "challenge"), rnd([["2S"], []], "card 2")]
    out = run(record(2, rounds, max_cards=1))
    assert_fault_at(out, 1, None)
    assert out["finished"] is True and out["standings"] == [[0], [1]]
    assert out["to_move"] is None and out["legal"] is None and len(out["rounds"]) == 1


def test_part5_round_after_the_end_is_found_before_its_own_faults() -> None:
    rounds = [rnd([["2S"], ["3S"]], "card A", "challenge"), "not a round"]
    assert_fault_at(run(record(2, rounds, max_cards=1)), 1, None)


def test_part5_non_last_round_without_challenge_is_a_fault_of_that_round() -> None:
    rounds = [rnd(H3, "card A", "challenge"), rnd([["2S"], ["3S", "3H"], ["4S"]], "card 2"),
              rnd([["2S"], ["3S", "3H"], ["4S"]], "card 2")]
    out = run(record(3, rounds))
    assert_fault_at(out, 1, None)
    between_round0_and_1(out)  # the game as the last complete round left it


def test_part5_non_last_round_with_no_actions_is_a_fault_of_that_round() -> None:
    out = run(record(3, [rnd(H3), rnd(H3)]))
    assert_fault_at(out, 0, None)
    assert out["to_move"] == 1 and out["legal"] == ALL_326 and out["rounds"] == []


def test_part5_faults_in_replay_order_action_before_a_later_deal() -> None:
    rounds = [rnd(H3, "card A", "pair 2", "card 3"), rnd([["2S"]], "card 2")]
    assert_fault_at(run(record(3, rounds)), 0, 2, "card 3")


def test_part5_faults_in_replay_order_action_before_round_end() -> None:
    rounds = [rnd(H3, "card A", "pair 2", "card 3"), rnd(H3)]  # not last, no challenge too
    assert_fault_at(run(record(3, rounds)), 0, 2, "card 3")


def test_part5_faults_in_replay_order_deal_before_its_actions() -> None:
    assert_fault_at(run(record(3, [rnd([["2S"], ["2S"], ["4S"]], "challenge")])), 0, None)


def test_part5_error_at_an_action_reports_the_game_after_the_last_legal_action() -> None:
    rounds = [rnd(H3, "card A", "challenge"),
              rnd([["2S"], ["3S", "3H"], ["4S"]], "pair 3", "card K")]
    out = run(record(3, rounds))
    assert_fault_at(out, 1, 1, "card K")
    assert out["to_move"] == 0 and out["finished"] is False
    assert out["legal"] == ALL_326[ALL_326.index("pair 4"):] + ["challenge"]
    assert [r["loser"] for r in out["rounds"]] == [1]


# --- Part 5: the report keys -------------------------------------------------------------


def test_part5_report_has_every_key_and_rounds_have_theirs() -> None:
    out = run(GOOD)
    for key in ("game", "ok", "error", "finished", "standings", "to_move", "legal", "rounds"):
        assert key in out
    for key in ("caller", "challenger", "call", "call_true", "loser", "eliminated"):
        assert key in out["rounds"][0]
    json.dumps(out)  # plain JSON values only


def test_part5_booleans_are_json_booleans() -> None:
    out = run(GOOD)
    assert out["ok"] is True and out["finished"] is False
    assert out["rounds"][0]["call_true"] is False and out["rounds"][0]["eliminated"] is False


def test_part5_between_rounds_to_move_is_the_next_first_caller_with_all_326() -> None:
    out = run(GOOD)
    assert out["to_move"] == 2 and out["legal"] == ALL_326


def test_part5_finished_game() -> None:
    out = run(record(2, [rnd([["2S"], ["3S"]], "card A", "challenge")], max_cards=1))
    assert out["ok"] and out["finished"] is True and out["standings"] == [[0], [1]]
    assert out["to_move"] is None and out["legal"] is None


def test_part5_replay_api_returns_faults_as_data() -> None:
    outcome = replay(record(3, [rnd(H3, "challenge")]))
    assert not outcome.ok and outcome.fault is not None
    assert (outcome.fault.round, outcome.fault.index) == (0, 0)
    assert outcome.state is not None and outcome.state.to_move == 1


# --- Bytes and files ---------------------------------------------------------------------


GOOD_BYTES = json.dumps(GOOD).encode()


def test_part5_a_leading_byte_order_mark_is_allowed() -> None:
    assert run_bytes(b"\xef\xbb\xbf" + GOOD_BYTES) == run(GOOD)


@pytest.mark.parametrize("data", [
    b'{"game": "bluff", "players": 3, "rounds": [], "x": "\xff"}',
    b"\xff\xfe" + json.dumps(GOOD).encode("utf-16-le"),
    json.dumps(GOOD).encode("utf-16"), json.dumps(GOOD).encode("utf-32"),
    b'{"game": "bluff", "players": 3, "rounds": [], "x": "\xc3\x28"}',
    b'{"game": "bluff", "players": 3, "rounds": [], "x": "\xed\xa0\x80"}',  # surrogate
])
def test_part5_a_file_that_is_not_utf8_is_malformed(data: bytes) -> None:
    assert_whole_record_fault(run_bytes(data), game=None)


@pytest.mark.parametrize("data", [
    b"", b"   ", b"{", b'{"game": "bluff",}', b"{'game': 'bluff'}", GOOD_BYTES + b" x",
    GOOD_BYTES + GOOD_BYTES, b'{"game": "bluff", "players": NaN, "rounds": []}',
    b'{"game": "bluff", "players": Infinity, "rounds": []}', b"\xef\xbb\xbf",
    b"\xef\xbb\xbf\xef\xbb\xbf" + GOOD_BYTES, b"[" * 100_000 + b"]" * 100_000,
])
def test_part5_bad_json_is_malformed_with_game_null(data: bytes) -> None:
    assert_whole_record_fault(run_bytes(data), game=None)


def test_part5_missing_file_is_a_fault_with_game_null(tmp_path: Any) -> None:
    assert_whole_record_fault(replay_file(tmp_path / "nope.json"), game=None)
    assert_whole_record_fault(replay_file(tmp_path), game=None)  # a directory


def test_part5_file_replays_like_its_bytes(tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(GOOD_BYTES)
    assert replay_file(path) == run(GOOD) == replay_report(GOOD)


def test_part5_deeply_nested_action_is_a_fault_not_a_crash() -> None:
    for depth in range(900, 1000, 3):
        nested = "[" * depth + "]" * depth
        data = ('{"game": "bluff", "players": 3, "rounds": [{"hands": [["2S"], ["3S"], '
                '["4S"]], "actions": [' + nested + "]}]}")
        out = run_bytes(data.encode())
        assert out["ok"] is False
        json.dumps(out)


def test_part5_lone_surrogate_in_the_record_prints_as_utf8() -> None:
    data = b'{"game": "bluff", "players": 3, "rounds": [{"hands": [["2S"], ["3S"], ["4S"]], ' \
           b'"actions": ["\\ud800 pair"]}]}'
    out = run_bytes(data)
    assert_fault_at(out, 0, 0, out["error"]["action"])
    json.dumps(out, ensure_ascii=False).encode("utf-8")
    unknown = run_bytes(b'{"game": "\\udfff"}')
    json.dumps(unknown, ensure_ascii=False).encode("utf-8")


# --- Writing records ---------------------------------------------------------------------


def test_part4_write_record_gives_back_the_record() -> None:
    rec = record(["Ann", "Bo", "Cy"], [rnd(H3, "card A", "challenge"),
                                       rnd([["2S"], ["3S", "3H"], ["4S"]], "card 2")],
                 max_cards=3, dealer=0)
    state = replay(rec).state
    assert state is not None
    assert write_record(state, ["Ann", "Bo", "Cy"]) == rec


@pytest.mark.parametrize("token", [" 7h", "7H ", "\u30007h\u3000", "\t10H\n"])
def test_part3_tolerance_in_hands_allows_whitespace_around_a_card(token: str) -> None:
    # "The same tolerance applies to the cards written in a record's hands": a card is one
    # token, and whitespace only separates tokens.
    out = run(record(3, [rnd([["2S"], [token], ["4S"]], "card 7", "challenge")]))
    assert out["ok"], out["error"]
    assert out["rounds"][0]["hands"][1] in (["7H"], ["TH"])


@pytest.mark.parametrize("token", ["7 H", "7H 8H", "7\u3000H", "7H,", "", " "])
def test_part3_a_card_in_a_hand_is_one_token(token: str) -> None:
    out = run(record(3, [rnd([["2S"], [token], ["4S"]], "card 7", "challenge")]))
    assert_fault_at(out, 0, None)
