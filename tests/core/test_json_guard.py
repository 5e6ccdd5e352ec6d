"""The JSON guard every reader of outside JSON goes through: depth, strictness, surrogates."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from usotsuki.core.json_guard import (
    NotJson,
    TooDeep,
    escape_lone_surrogates,
    nesting_depth,
    parse_json,
    printable,
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{}\ud800 '),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=20)


def structure_depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((structure_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((structure_depth(v) for v in value.values()), default=0)
    return 0


@given(JSON_VALUES)
def test_depth_is_exact_on_json_text_whatever_its_strings_hold(value: Any) -> None:
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        assert nesting_depth(text) == structure_depth(value)


@pytest.mark.parametrize(("text", "depth"), [
    ("", 0), ("7", 0), ('"[[["', 0), ('["]"]', 1), ('[["\\"]"]]', 2), ('{"a": [{}]}', 3),
    ('"\\\\"[', 1),  # an escaped backslash ends before the quote: the bracket counts
    ('"unterminated [[[', 0), ('[[\\"[', 2),  # a backslash outside a string escapes nothing
])
def test_depth_of_odd_text(text: str, depth: int) -> None:
    assert nesting_depth(text) == depth


def test_depth_scan_is_linear_on_escaped_quotes() -> None:
    """Every quote of ``"\\"\\"\\"...`` starts a string that never ends: a scanner that
    retried each one would take minutes on a record-sized text."""
    assert nesting_depth('"' + '\\"' * 200_000 + "[") == 0
    assert nesting_depth('[' + '"\\"' * 200_000) == 1


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", '{"a": NaN}',
                                  '[1, -Infinity]'])
def test_nan_and_infinity_are_not_json(text: str) -> None:
    with pytest.raises(NotJson, match="is not valid JSON"):
        parse_json(text, 8)


def test_too_deep_is_refused_before_parsing_and_the_limit_is_inclusive() -> None:
    assert parse_json("[" * 8 + "]" * 8, 8) == [[[[[[[[]]]]]]]]
    with pytest.raises(TooDeep, match="nests deeper than 8 levels"):
        parse_json("[" * 9 + "]" * 9, 8)
    with pytest.raises(TooDeep):
        parse_json("[" * 100_000, 8)  # never reaches the recursive parser


def test_not_json_carries_the_decoders_message() -> None:
    with pytest.raises(NotJson, match=r"Expecting value: line 1 column 1 \(char 0\)"):
        parse_json("", 8)


def test_lone_surrogates_are_escaped_and_nothing_else_changes() -> None:
    text = json.dumps({"name": "\ud800x\udfff", "card": "\u2660"}, ensure_ascii=False)
    escaped = escape_lone_surrogates(text)
    escaped.encode("utf-8")
    assert json.loads(escaped) == json.loads(text)  # the same value
    assert escape_lone_surrogates("plain \u2660") == "plain \u2660"
    assert escape_lone_surrogates("\ud800") == "\ud800".encode("utf-8",
                                                               "backslashreplace").decode()
    assert printable({"a": ["\udfff", 1]}) == {"a": ["\\udfff", 1]}
