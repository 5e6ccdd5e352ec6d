"""Counted words as they are said, for every command's output."""

from __future__ import annotations

import re


def plural(n: int, word: str) -> str:
    """``2 cards``, ``1 card``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


_COUNTED = re.compile(r"\b(\d+) (\w+)\(s\)")


def plurals(message: str) -> str:
    """A message's "2 card(s)" as said: "2 cards", "1 card"."""
    return _COUNTED.sub(lambda m: plural(int(m.group(1)), m.group(2)), message)
