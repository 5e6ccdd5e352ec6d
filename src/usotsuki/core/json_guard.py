"""JSON text from outside (a record file, a posted body, a WebSocket message), read safely.

One decision for every reader of untrusted JSON:

- **Strict RFC 8259.** ``NaN``, ``Infinity`` and ``-Infinity`` are refused: they are not
  JSON, and a game value can never be one.
- **Nesting is bounded before parsing.** :func:`nesting_depth` counts brackets outside
  strings in one linear pass, so a hostile ``[[[[...`` never reaches the recursive parser;
  a caller refuses text deeper than its own limit (a record needs 5 levels, a message 2).
- **Lone surrogates are accepted and escaped on the way out.** ``"\\ud800"`` is valid
  JSON text and decodes to a ``str`` that UTF-8 cannot carry; every writer passes its
  text through :func:`escape_lone_surrogates`, which writes such a character back as its
  ``\\u`` escape (inside a JSON string: the same value; in plain text: readable).

Size is each caller's bound (a record's bytes, a message's characters): it is checked on
the raw input, before this module sees any text.
"""

from __future__ import annotations

import json
import re
from typing import Any


class JsonRefused(ValueError):
    """Text the guard does not parse; the message says why, without a prefix."""


class TooDeep(JsonRefused):
    """Text that nests arrays and objects deeper than the caller allows."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"nests deeper than {limit} levels")
        self.limit = limit


class NotJson(JsonRefused):
    """Text that is not JSON (RFC 8259): the message is the decoder's."""


# A string (its closing quote optional, so that an unterminated one ends the scan instead
# of being retried from every later quote), or one bracket. Unrolled so that it never
# backtracks: linear in the text.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)
_OPENING, _CLOSING = frozenset("[{"), frozenset("]}")


def nesting_depth(text: str) -> int:
    """How deeply ``text`` nests arrays and objects, counted without parsing it.

    Exact for JSON text; for other text never less than what :func:`json.loads` would
    recurse into before failing.
    """
    deepest = level = 0
    for token in _TOKEN.findall(text):
        if token in _OPENING:
            level += 1
            if level > deepest:
                deepest = level
        elif token in _CLOSING:
            level -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise NotJson(f"{name} is not valid JSON")


def parse_json(text: str, max_depth: int) -> Any:
    """Parse ``text`` strictly, after checking its nesting against ``max_depth``.

    :raises TooDeep: nested deeper than ``max_depth`` (checked before parsing).
    :raises NotJson: not JSON, or ``NaN``/``Infinity``; the message is the decoder's.
    """
    if nesting_depth(text) > max_depth:
        raise TooDeep(max_depth)
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise NotJson(str(exc)) from None
    except RecursionError:  # cannot happen after the depth check; never a crash
        raise TooDeep(max_depth) from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(text: str) -> str:
    """``text`` made encodable as UTF-8: each lone surrogate written as its ``\\u``
    escape (lower-case hex, as ``json.dumps`` and Python's ``backslashreplace`` write it).

    In JSON text a surrogate can only stand inside a string, so the result is JSON of
    the same value; in plain text (a message, a name) it shows the escape.
    """
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def printable(value: Any) -> Any:
    """A parsed JSON ``value`` with :func:`escape_lone_surrogates` applied to every string
    in it, for output that must be UTF-8 (a report echoing a record's text, a terminal)."""
    if isinstance(value, str):
        return escape_lone_surrogates(value)
    if isinstance(value, list):
        return [printable(v) for v in value]
    if isinstance(value, dict):
        return {k: printable(v) for k, v in value.items()}
    return value
