"""The rule book (RULES.md, shipped in this package) cut into its numbered rules.

Each rule of Parts 1 and 2 is one bullet that starts with its code in bold
(``- **B5 A turn.** ...``); its entry is that bullet with its indented continuation (B6's
table included). Codes are stable (RULES.md says so): messages cite them as ``(B5, B7)``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

CODE = re.compile(r"\b([BLO])([1-9][0-9]?)\b")
"""A rule code as messages and comments cite it: ``B5``, ``L10``, ``O7``."""
_START = re.compile(r"^- \*\*(?P<code>[BLO][0-9]+)\s+(?P<title>[^*]+?)\.?\*\*(?P<rest>.*)$")
GAMES = {"B": "bluff", "L": "liar", "O": "liar"}


@dataclass(frozen=True, slots=True)
class Rule:
    """One numbered rule: its code, its bold title and its whole text (Markdown, the
    code and title included, as RULES.md writes it)."""

    code: str
    title: str
    text: str

    @property
    def body(self) -> str:
        """The text as a paragraph of its own: the bullet and its indent taken off."""
        first, *rest = self.text.splitlines()
        return "\n".join([first.removeprefix("- "), *(line.removeprefix("  ") for line in rest)])

    @property
    def game(self) -> str:
        """``bluff`` or ``liar``: B rules are Bluff's, L and O (house rules) the Liar Game's."""
        return GAMES[self.code[0]]


def rule_book() -> str:
    """RULES.md, the whole rule book, as shipped in the package."""
    return resources.files(__package__).joinpath("RULES.md").read_text(encoding="utf-8")


def parse_rules(text: str) -> dict[str, Rule]:
    """The numbered rules of a rule book's text, in its order."""
    rules: dict[str, Rule] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start = _START.match(lines[i])
        if start is None:
            i += 1
            continue
        body = [lines[i]]
        i += 1
        while i < len(lines) and _continues(lines, i):
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        code = start["code"]
        rules[code] = Rule(code, start["title"].strip(), "\n".join(body))
    return rules


def _continues(lines: list[str], i: int) -> bool:
    """Line ``i`` still belongs to the bullet above: indented, or a blank line that an
    indented line follows (B6's table)."""
    line = lines[i]
    if line.startswith("  "):
        return True
    if line.strip():
        return False
    return i + 1 < len(lines) and lines[i + 1].startswith("  ")


@functools.cache
def rules() -> dict[str, Rule]:
    """Every numbered rule of the shipped rule book, by code, in the book's order."""
    return parse_rules(rule_book())


def cited(text: str) -> list[str]:
    """The rule codes ``text`` cites, in order, each once: ``"... (B5, B7)"`` gives
    ``["B5", "B7"]``. Only codes of the rule book count (``B0`` is none)."""
    known = rules()
    seen: dict[str, None] = {}
    for match in CODE.finditer(text):
        code = match.group(0)
        if code in known:
            seen.setdefault(code)
    return list(seen)
