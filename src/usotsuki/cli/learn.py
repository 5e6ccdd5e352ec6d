"""``usotsuki learn bluff|liar``: the lessons in the terminal.

Each lesson (:mod:`usotsuki.lessons`) is shown as the terminal game shows a game, with
the same screens (:class:`~usotsuki.cli.bluff_play.BluffScreen`,
:class:`~usotsuki.cli.liar_play.LiarScreen`): its texts, the bots' moves, and at each
task the table and a prompt with Tab completion of the legal moves. A wrong move is
explained and asked again. Finished lessons are remembered in a file of the user's data
directory (:func:`progress_path`), so the next ``learn`` starts where the person stopped.

Exit statuses as for ``play``: 0 at the end (or the end of input), 1 for bad options,
130 for ``quit`` or Ctrl-C.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from usotsuki.cli.bluff_play import BluffScreen
from usotsuki.cli.liar_play import LiarScreen
from usotsuki.cli.loop import BAD_OPTIONS, DONE, LEFT, Screen
from usotsuki.cli.prompt import LineReader
from usotsuki.cli.records import write_text_atomic
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.cli.text import plurals
from usotsuki.lessons import Lesson, LessonRun, Shown, Task, lessons

COMMANDS = {"help": "the task again, and these commands", "table": "show the table again",
            "skip": "leave this lesson for the next one", "quit": "stop (progress is kept)"}
ALIASES = {"?": "help", "exit": "quit", "hand": "table", "look": "table"}
WORDS = {"en": {"lesson": "Lesson", "done": "Lesson done.", "again": "Try again.",
                "all": "You have finished every lesson of this game.",
                "left": "That was the last lesson. Still to do (--list shows them all): ",
                "your_move": "your move> "},
         "ja": {"lesson": "レッスン", "done": "レッスン完了。", "again": "もう一度どうぞ。",
                "all": "このゲームのレッスンはすべて終わりました。",
                "left": "最後のレッスンでした。まだ終わっていないレッスン（--list で一覧）：",
                "your_move": "your move> "}}


def progress_path() -> Path:
    """``$XDG_DATA_HOME/usotsuki/lessons.json`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "usotsuki" / "lessons.json"


def read_progress(path: Path) -> list[str]:
    """The ids of the lessons finished; none for a missing or unreadable file (progress is
    a convenience: a broken file must not stop anyone learning)."""
    try:
        done = json.loads(path.read_text("utf-8")).get("done", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [d for d in done if isinstance(d, str)] if isinstance(done, list) else []


def mark_done(path: Path, lesson_id: str) -> str | None:
    """Remember ``lesson_id`` as finished; the reason when the file cannot be written."""
    done = read_progress(path)
    if lesson_id in done:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps({"done": [*done, lesson_id]}, indent=1) + "\n")
    except OSError as exc:
        return f"could not save your progress in {path}: {exc.strerror or exc}"
    return None


class Quit(Exception):
    """The person asked to stop."""


class Skip(Exception):
    """The person asked to leave this lesson."""


def list_lessons(game: str, console: Console, lang: str, path: Path) -> int:
    done = set(read_progress(path))
    for number, lesson in enumerate(lessons(game), 1):
        mark = "[green]✓[/green]" if lesson.id in done else " "
        console.print(f"{mark} {number:2}. [bold]{escape(lesson.title(lang))}[/bold] "
                      f"[dim]({', '.join(lesson.codes)})[/dim]")
        console.print(f"      {escape(lesson.summary(lang))}")
    console.print(f"[dim]usotsuki learn {game} --lesson N starts lesson N.[/dim]")
    return DONE


def run_learn(game: str, *, lesson: int | None = None, lang: str = "en", list_only: bool = False,
              console: Console | None = None, ask: Callable[[str], str] | None = None,
              progress: Path | None = None, errors: Console | None = None) -> int:
    """Teach ``game``'s lessons from ``lesson`` (1-based; default: the first not yet
    finished) to the last; return the exit status."""
    console = console or Console(highlight=False)
    errors = errors or error_console()
    path = progress or progress_path()
    try:
        if lang not in WORDS:
            raise ValueError(f"--lang must be en or ja, not {lang!r}")
        found = lessons(game)
        if lesson is not None and not 1 <= lesson <= len(found):
            raise ValueError(f"--lesson must be 1 to {len(found)}, not {lesson}")
    except ValueError as exc:
        print_error(errors, str(exc))
        return BAD_OPTIONS
    if list_only:
        return list_lessons(game, console, lang, path)
    done = read_progress(path)
    start = lesson - 1 if lesson is not None else \
        next((i for i, x in enumerate(found) if x.id not in done), 0)
    teacher = Teacher(console, lang, ask)
    for number in range(start, len(found)):
        try:
            finished = teacher.teach(found[number], number + 1, len(found))
        except (Quit, KeyboardInterrupt):
            console.print("\n[yellow]Stopped. usotsuki learn goes on from here next time."
                          "[/yellow]")
            return LEFT
        except EOFError:
            console.print("\n[yellow]Stopped (end of input).[/yellow]")
            return DONE
        if finished:
            failure = mark_done(path, found[number].id)
            if failure is not None:
                print_error(errors, failure)
    left = [str(i) for i, x in enumerate(found, 1) if x.id not in read_progress(path)]
    console.print(f"[bold green]{WORDS[lang]['all']}[/bold green]" if not left else
                  f"{WORDS[lang]['left']}{', '.join(left)}")
    return DONE


class Teacher:
    """Shows lessons to one person and reads their moves."""

    def __init__(self, console: Console, lang: str, ask: Callable[[str], str] | None) -> None:
        self.console, self.lang = console, lang
        self.reader = LineReader(console) if ask is None else None
        self.ask: Callable[[str], str] = ask or self.reader  # type: ignore[assignment]

    def screen(self, lesson: Lesson) -> Screen:
        names = lesson.names_in("en")  # the screens speak English: so do their names
        if lesson.game == "bluff":
            return BluffScreen(self.console, names, lesson.seat)
        return LiarScreen(self.console, names, lesson.seat, lesson.games)

    def teach(self, lesson: Lesson, number: int, count: int) -> bool:
        """One lesson to its end: True when finished, False when skipped."""
        words = WORDS[self.lang]
        self.console.rule(f"[bold]{words['lesson']} {number}/{count}: "
                          f"{escape(lesson.title(self.lang))}[/bold]")
        screen = self.screen(lesson)
        run, shown = LessonRun.start(lesson)
        self.show(screen, shown)
        try:
            while run.task is not None:
                run = self.task(screen, run, run.task)
        except Skip:
            return False
        self.console.print(f"[bold green]{words['done']}[/bold green]")
        return True

    def show(self, screen: Screen, shown: Sequence[Shown]) -> None:
        for item in shown:
            if item.say is not None:
                self.console.print()
                self.console.print(f"[cyan]{escape(item.say(self.lang))}[/cyan]")
            elif item.seat is None:
                assert item.after is not None
                screen.show_deal(item.after, item.events)
            else:
                assert item.before is not None and item.after is not None
                screen.show_step(item.before, item.after, item.seat, item.action, item.events)

    def help(self, screen: Screen, session: Any, task: Task) -> None:
        """The task again, what may be typed in this game (the play screens' own help,
        with examples legal here) and the lesson's commands."""
        self.console.print(f"[bold]{escape(task.ask(self.lang))}[/bold]")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for what, text in screen.help_rows(session):
            grid.add_row(what, text)
        for name, text in COMMANDS.items():
            grid.add_row(f"[bold]{name}[/bold]", text)
        self.console.print(grid)

    def task(self, screen: Screen, run: LessonRun, task: Task) -> LessonRun:
        """Ask until the task accepts a move; the run after it."""
        session: Any = run.session
        screen.show_turn(session)
        self.console.print(f"[bold]{escape(task.ask(self.lang))}[/bold]")
        if self.reader is not None:
            self.reader.complete_with(lambda done: [*screen.next_words(session, done),
                                                    *(COMMANDS if not done else ())])
        while True:
            text = self.ask(WORDS[self.lang]["your_move"]).strip()
            word = ALIASES.get(text.lower(), text.lower())
            if not text:
                continue
            if word == "quit":
                raise Quit
            if word == "skip":
                raise Skip
            if word == "table":
                screen.show_table(session)
                continue
            if word == "help":
                self.help(screen, session, task)
                continue
            verdict, after, shown = run.attempt(text)
            if verdict.accepted:
                self.show(screen, shown)
                return after
            if verdict.reason is not None:
                self.console.print(f"[red]{escape(plurals(verdict.reason))}[/red]")
            if verdict.explain is not None:
                self.console.print(f"[yellow]{escape(verdict.explain(self.lang))}[/yellow]")
            self.console.print(f"[dim]{WORDS[self.lang]['again']}[/dim]")
