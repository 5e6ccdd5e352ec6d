"""The rule book for people: every numbered rule (RULES.md, shipped here) with a line that
explains it, its Japanese text and a worked example played on the cores.

:func:`entry` is what both shells show for a code (``usotsuki rules B5``, the browser's
rules page); :func:`cited` finds the codes a message cites, so that a shell can point to
them.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from usotsuki.rulebook.book import CODE, Rule, cited, rule_book, rules
from usotsuki.rulebook.examples import worked_example

__all__ = ["CODE", "Rule", "cited", "entry", "entries", "rule_book", "rules", "texts",
           "worked_example"]


@functools.cache
def texts() -> dict[str, dict[str, Any]]:
    """Per code: ``title``, ``line`` (one sentence for the index) and ``example`` (what
    the example shows) in ``en`` and ``ja``, and ``text.ja``, the rule in Japanese."""
    data: dict[str, dict[str, Any]] = json.loads(
        resources.files(__package__).joinpath("codes.json").read_text(encoding="utf-8"))
    return data


def entry(code: str) -> dict[str, Any]:
    """Everything shown for one rule, as JSON: ``code``, ``game``, ``title``, ``line``,
    ``text`` (``en``: RULES.md's Markdown, without its bullet; ``ja``), ``caption`` and ``example``.

    :raises KeyError: for a code the rule book does not have.
    """
    rule = rules()[code.upper()]
    words = texts()[rule.code]
    return {"code": rule.code, "game": rule.game, "title": words["title"],
            "line": words["line"], "text": {"en": rule.body, "ja": words["text"]["ja"]},
            "caption": words["example"], "example": worked_example(rule.code)}


def entries() -> list[dict[str, Any]]:
    """:func:`entry` of every rule, in the rule book's order."""
    return [entry(code) for code in rules()]
