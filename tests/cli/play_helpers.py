"""Playing in-process with scripted answers, for the terminal's tests."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from usotsuki.cli.bluff_play import run_bluff
from usotsuki.cli.liar_play import LiarOptions, run_liar


def run(game: str, ask: Any, width: int = 200, **options: Any) -> tuple[int, str]:
    """Play in-process with a scripted ``ask``; the screen's text comes back."""
    screen = io.StringIO()
    console = Console(file=screen, width=width, highlight=False, color_system=None)
    options.setdefault("seed", 3)
    options.setdefault("players", 3)
    if game == "bluff":
        options.setdefault("save", None)
        options.setdefault("seat", 0)
        code = run_bluff(console=console, ask=ask, **options)
    else:
        code = run_liar(LiarOptions(**options), console=console, ask=ask)
    return code, screen.getvalue()


def script(*answers: str) -> Any:
    """An ``ask`` that types ``answers`` and then reaches the end of input."""
    queue = list(answers)

    def ask(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)
    return ask
