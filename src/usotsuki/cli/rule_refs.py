"""Where a terminal message that cites rule codes (``(B5, B7)``) points: to
``usotsuki rules CODE``, which prints each rule with a worked example."""

from __future__ import annotations

from collections.abc import Sequence

from usotsuki.rulebook import cited, texts

IN_GAME = "Type 'rules CODE' (such as 'rules B5') for a rule's text with a worked example."


def see_rules(message: str, command: str = "usotsuki rules") -> str:
    """Dim markup naming the command that explains the codes ``message`` cites, with a
    leading space; "" when it cites none."""
    codes = cited(message)
    return f" [dim](see '{command} {' '.join(codes)}')[/dim]" if codes else ""


def explained(codes: Sequence[str]) -> list[str]:
    """One plain line per rule code: ``O1 Multiple cards (multi): The leader may ...``."""
    words = texts()
    return [f"  {code} {words[code]['title']['en']}: {words[code]['line']['en']}"
            for code in codes]
