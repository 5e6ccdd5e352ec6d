"""The record checks both games share (RULES.md Part 4, Part 5 fine points)."""

from __future__ import annotations

from typing import Any

import pytest

from usotsuki.core.errors import (
    IllegalAction,
    InvalidDeal,
    InvalidNotation,
    InvalidRules,
    MalformedRecord,
    UsotsukiError,
)
from usotsuki.core.record import (
    RecordError,
    action_as_written,
    check_int_option,
    is_int,
    parse_players,
    parse_record_bytes,
    rules_object,
)


def test_errors_are_value_errors() -> None:
    for error in (InvalidNotation, IllegalAction, InvalidRules, InvalidDeal, MalformedRecord):
        assert issubclass(error, UsotsukiError) and issubclass(error, ValueError)


def test_part5_bytes_decode_as_utf8_with_an_optional_bom() -> None:
    assert parse_record_bytes(b'{"a": "\xe2\x99\xa0"}') == {"a": "\u2660"}
    assert parse_record_bytes(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}


@pytest.mark.parametrize("data", [b"\xff", b'"\xe9"', b"{", b"NaN", b"-Infinity", b"",
                                  b"[" * 10_000])
def test_part5_bad_bytes_are_record_errors_outside_any_round(data: bytes) -> None:
    with pytest.raises(RecordError) as info:
        parse_record_bytes(data)
    fault = info.value.fault
    assert (fault.round, fault.index, fault.action) == (None, None, None) and fault.message


@pytest.mark.parametrize(("value", "written"), [
    ("pair 7", "pair 7"), (" x ", " x "), (None, None), (7, "7"), (True, "true"),
    (False, "false"), (2.5, "2.5"), ([], "[]"), ({}, "{}"),
])
def test_part5_action_as_written(value: Any, written: str | None) -> None:
    assert action_as_written(value) == written


@pytest.mark.parametrize(("value", "ok"), [(3, True), (0, True), (-2, True), (True, False),
                                           (False, False), (3.0, False), ("3", False),
                                           (None, False)])
def test_part4_integers_are_json_integers_only(value: Any, ok: bool) -> None:
    assert is_int(value) is ok


def test_part4_int_option_bounds() -> None:
    assert check_int_option("dealer", 2, 0, 3) == 2
    for bad in (-1, 4, 2.0, True, None):
        with pytest.raises(RecordError):
            check_int_option("dealer", bad, 0, 3)


@pytest.mark.parametrize(("value", "count"), [(2, 2), (8, 8), (["a", "b"], 2),
                                              (["a"] * 8, 8), (["", ""], 2)])
def test_part4_players_count_or_names(value: Any, count: int) -> None:
    assert parse_players(value)[0] == count


@pytest.mark.parametrize("value", [1, 9, 2.0, True, "3", None, ["a"], ["a", 1], {}])
def test_part4_players_refused(value: Any) -> None:
    with pytest.raises(RecordError):
        parse_players(value)


def test_part4_rules_absent_null_or_known_keys() -> None:
    known = {"max_cards": 5, "dealer": 0}
    assert rules_object({}, known) == {} and rules_object({"rules": None}, known) == {}
    assert rules_object({"rules": {"dealer": 1}}, known) == {"dealer": 1}
    with pytest.raises(RecordError, match="max_card"):
        rules_object({"rules": {"max_card": 1}}, known)
    with pytest.raises(RecordError):
        rules_object({"rules": []}, known)
