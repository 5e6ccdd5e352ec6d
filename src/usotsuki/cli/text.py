"""Words as they are said and lines that fit, for every command's output."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text


def plural(n: int, word: str) -> str:
    """``2 cards``, ``1 card``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


_COUNTED = re.compile(r"\b(\d+) (\w+)\(s\)")


def plurals(message: str) -> str:
    """A message's "2 card(s)" as said: "2 cards", "1 card"."""
    return _COUNTED.sub(lambda m: plural(int(m.group(1)), m.group(2)), message)


def fit(items: Sequence[str], width: int, sep: str = "   ", indent: str = "  ") -> list[str]:
    """Markup ``items`` joined by ``sep`` into lines of at most ``width`` cells, never
    breaking an item (a seat's name and count stay together at 80 columns)."""
    lines: list[str] = []
    current, used = "", 0
    for item in items:
        cells = Text.from_markup(item).cell_len
        if current and used + len(sep) + cells > width:
            lines.append(current)
            current, used = indent + item, len(indent) + cells
        elif current:
            current, used = current + sep + item, used + len(sep) + cells
        else:
            current, used = item, cells
    if current:
        lines.append(current)
    return lines
