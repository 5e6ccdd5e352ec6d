"""The line the person types at their turn: editing, history and completion of moves.

At a terminal, :class:`LineReader` reads with prompt_toolkit: arrow keys and Emacs keys
edit the line, Up and Down walk the game's history, and Tab completes the legal moves in
the notation (RULES.md Part 3), word by word, from what the screen says is legal now.
From a pipe or a file it reads plain lines and echoes each one after the prompt, so that
the transcript reads as the game went ("your action> challenge"); typed at a terminal
whose output goes elsewhere, plain lines that the terminal itself echoes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from rich.console import Console
from rich.markup import escape

# The words that may come next, given the words typed before them (lower-case).
NextWords = Callable[[Sequence[str]], Iterable[str]]


class MoveCompleter(Completer):
    """Completes the word under the cursor from ``next_words`` of the words before it;
    matching ignores case, as the notation does."""

    def __init__(self) -> None:
        self.next_words: NextWords = lambda done: ()

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        before = document.text_before_cursor
        words = before.split()
        partial = "" if not words or before[-1:].isspace() else words.pop()
        seen: set[str] = set()
        for word in self.next_words([w.lower() for w in words]):
            if word.lower().startswith(partial.lower()) and word not in seen:
                seen.add(word)
                yield Completion(word, start_position=-len(partial))


def words_after(lines: Iterable[str], done: Sequence[str]) -> list[str]:
    """The next word of each of ``lines`` (whole actions, e.g. every legal Bluff call)
    that begins with the words ``done``, in order, once each."""
    out: list[str] = []
    n = len(done)
    for line in lines:
        words = line.split()
        if len(words) > n and [w.lower() for w in words[:n]] == list(done) and \
                words[n] not in out:
            out.append(words[n])
    return out


class LineReader:
    """``ask(prompt)`` for the play loop: prompt_toolkit at a terminal (or when given an
    ``input``/``output`` pair, as tests do), plain lines echoed otherwise.

    :meth:`complete_with` sets what Tab offers for the turn about to be asked.
    """

    def __init__(self, console: Console, *, interactive: bool | None = None,
                 **session_options: Any) -> None:
        self.console = console
        self.completer = MoveCompleter()
        if interactive is None:
            interactive = bool(session_options) or (sys.stdin.isatty() and
                                                    sys.stdout.isatty())
        self.echo = not sys.stdin.isatty()  # a terminal echoes what is typed itself
        self.session: PromptSession[str] | None = None
        if interactive:
            self.session = PromptSession(history=InMemoryHistory(), completer=self.completer,
                                         complete_while_typing=False, **session_options)

    def complete_with(self, next_words: NextWords) -> None:
        self.completer.next_words = next_words

    def __call__(self, prompt: str) -> str:
        """One line; ``EOFError`` at the end of input, ``KeyboardInterrupt`` on Ctrl-C."""
        if self.session is not None:
            return self.session.prompt(prompt)
        text = self.console.input(escape(prompt))
        if self.echo:  # a pipe's line, shown as if typed
            self.console.print(escape(text), soft_wrap=True)
        return text
