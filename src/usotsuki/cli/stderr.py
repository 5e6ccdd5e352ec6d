"""Errors go to standard error, one way for every command.

A refused option, an unwritable path or a bad record is an error of the command: it is
written to standard error (so ``usotsuki play ... > game.txt`` still shows it, and a
script can tell it from the game), in red, with a path kept whole on one line. A move
refused during play is part of the game's conversation and stays with the game's output.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from usotsuki.cli.rule_refs import see_rules


def error_console() -> Console:
    return Console(stderr=True, highlight=False)


def print_error(console: Console, message: str) -> None:
    """``message`` (plain text) as an error line; paths in it stay whole."""
    console.print(f"[red]{escape(message)}[/red]{see_rules(message)}", soft_wrap=True)
