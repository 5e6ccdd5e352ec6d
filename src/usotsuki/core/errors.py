"""Typed errors, named like python-chess's: all are ``ValueError``s with a clear message.

Every error may say which rule it enforces (``rule``: ``"L9"``, ``"B5"``, or None when no
numbered rule applies) and which action it refused (``action``: the action value, its
text as written in a record, or None), so shells can show and log them without parsing
the message.
"""

from __future__ import annotations


def must_be(name: str, allowed: str, value: object, rule: str | None = None) -> str:
    """The one wording of an out-of-range option in both games and the shells:
    ``players must be 2 to 8, not 9 (B1)``, ``hand_size must be at least 1, not 0 (L3)``."""
    return f"{name} must be {allowed}, not {value!r}" + (f" ({rule})" if rule else "")


class UsotsukiError(ValueError):
    """Base of every error the rules and records raise on bad input."""

    def __init__(self, message: str, rule: str | None = None, action: object = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.action = action


class InvalidNotation(UsotsukiError):
    """Text that is not well-formed notation (RULES.md Part 3)."""


class IllegalAction(UsotsukiError):
    """A well-formed action that the rules do not allow in this state."""


class InvalidRules(UsotsukiError):
    """Options that are out of range or do not combine (B2, Part 4)."""


class MissingOption(InvalidRules):
    """An option switched on without the option it needs: ``option`` needs ``needs``
    (O2 needs O1, O5 needs O4), so that a form can say which box to tick."""

    def __init__(self, option: str, needs: str, rule: str, needed_rule: str) -> None:
        super().__init__(f"{option} needs {needs} ({rule} needs {needed_rule})", rule)
        self.option = option
        self.needs = needs


class InvalidDeal(UsotsukiError):
    """Hands (or a stock) that the rules do not allow: wrong sizes, a card twice."""


class MalformedRecord(UsotsukiError):
    """A game record that is not well formed (RULES.md Part 4)."""
