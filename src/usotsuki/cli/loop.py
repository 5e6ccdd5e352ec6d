"""One play loop for both games in the terminal, over the :class:`~usotsuki.session.Session`
protocol.

The loop deals, asks the bots and the person for actions, saves the record after every
deal and action (atomically, so an interrupted game loses nothing) and hands every step
to a :class:`Screen`, the per-game rendering. The core decides every rule; the loop
decides nothing but whose input to wait for.

The person's commands are the same in both games: ``help``, ``table``, ``rules``,
``hint`` and ``auto`` (one adviser: ``auto`` plays exactly what ``hint`` suggests),
``quit``; a screen may add its own (Bluff's ``odds``). A misspelt word gets a
"did you mean" from :mod:`difflib`. At a terminal the line is read with editing, history
and Tab completion of the legal moves (:mod:`usotsuki.cli.prompt`).

The record holds only what the person has seen: each step is shown, then saved, then
the bots' pause runs, so Ctrl-C at any moment leaves a record of the game as shown.

Exit statuses: 0 when the game is played out, and also at the end of input (Ctrl-D, or
a script of moves that runs out): that is the ordinary end of a piped or typed session,
as in Python's own prompt, and the record so far is saved. 1 for bad options. 130 for
Ctrl-C (the shell's 128 + SIGINT) and for ``quit``, the person leaving a game unfinished.
"""

from __future__ import annotations

import difflib
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from usotsuki.bots.base import AnyBot, make_bot
from usotsuki.cli.prompt import LineReader, NextWords
from usotsuki.cli.records import check_writable, save_record
from usotsuki.cli.rules import run_rules
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.core.errors import UsotsukiError, must_be
from usotsuki.core.events import Event
from usotsuki.session import Session as TypedSession
from usotsuki.session import chance_source

DONE, BAD_OPTIONS, LEFT = 0, 1, 130
Session = TypedSession[Any, Any, Any]  # the loop serves either game

COMMANDS: tuple[tuple[str, str], ...] = (
    ("hint", "what the {adviser} bot would do in your place (it sees only your view)"),
    ("auto", "let the {adviser} bot make this move for you (the move 'hint' names)"),
    ("table", "show the table again"),
    ("rules", "the rules in force; 'rules B5' shows rule B5 with a worked example"),
    ("help", "this text"),
    ("quit", "leave (with --save the record so far stays saved)"),
)
ALIASES = {"?": "help", "exit": "quit", "hand": "table", "look": "table"}
DEFAULT_BOT = {"bluff": "normal", "liar": "sensible"}  # --bots' defaults


class Quit(Exception):
    """The person asked to leave."""


class Screen(Protocol):
    """What one game shows the person's seat: the loop calls these, nothing else."""

    adviser: str  # the bot name behind ``hint`` and ``auto``
    words: Sequence[str]  # the first words of actions, for "did you mean"

    def intro(self, session: Session) -> str: ...
    def help_rows(self, session: Session) -> Sequence[tuple[str, str]]:
        """``(what to type, what it does)`` for the game's own actions and commands, with
        examples that are legal in this game (its deck, its house rules)."""
    def next_words(self, session: Session, done: Sequence[str]) -> Iterable[str]:
        """Tab completion: the words of legal actions that may follow ``done`` (the
        words typed so far, lower-case)."""
    def show_deal(self, session: Session, events: Sequence[Event]) -> None: ...
    def show_turn(self, session: Session) -> None:
        """The person is to move: the table and what they may do."""
    def show_table(self, session: Session) -> None: ...
    def show_resumed(self, session: Session) -> None:
        """A game rebuilt from its record (``--resume``): where it stands."""
    def rules_text(self, session: Session) -> str: ...
    def show_step(self, before: Session, after: Session, seat: int, action: Any,
                  events: Sequence[Event]) -> None: ...
    def error_text(self, exc: UsotsukiError, session: Session, did_you_mean: str) -> str:
        """Markup for a refused action, then ``did_you_mean`` (may be ""), then what is
        legal."""
    def suggest(self, session: Session) -> Any:
        """The adviser's action for the person, the same every time for one view."""
    def hint_lines(self, session: Session, suggestion: Any) -> list[str]: ...
    def command(self, word: str, session: Session) -> bool:
        """Run a game-specific command (Bluff's ``odds``); False when ``word`` is none."""
    def show_end(self, session: Session) -> None: ...


def check_common(*, players: int, seat: int, delay: float, save: Path | None) -> None:
    """The options both games share, checked before anything starts.

    :raises ValueError: with a sentence naming the option.
    """
    if not 0 <= seat < players:
        raise ValueError(must_be("--seat", f"0 to {players - 1}", seat))
    if delay < 0:
        raise ValueError(must_be("--delay", "0 or more seconds", delay))
    if save is not None:
        check_writable(save, "--save")


def make_bots(game: str, kinds_text: str, players: int, seat: int) -> dict[int, AnyBot]:
    """The bots at every seat but ``seat``: ``kinds_text`` names them comma-separated,
    repeated as needed (empty: the game's usual opponent).

    :raises ValueError: for an unknown name (with a "did you mean").
    """
    kinds = [k.strip() for k in kinds_text.split(",") if k.strip()] or [DEFAULT_BOT[game]]
    others = [s for s in range(players) if s != seat]
    return {s: make_bot(game, kinds[i % len(kinds)]) for i, s in enumerate(others)}


def make_player(screen: Screen, seat: int, console: Console,
                ask: Callable[[str], str] | None, **options: Any) -> Player:
    """The person at ``seat``; without a scripted ``ask``, reading lines with editing,
    history and completion at a terminal (:class:`~usotsuki.cli.prompt.LineReader`)."""
    if ask is not None:
        return Player(screen, seat, console, ask, **options)
    reader = LineReader(console)
    return Player(screen, seat, console, reader, complete_with=reader.complete_with,
                  **options)


def did_you_mean(text: str, words: Sequence[str]) -> str:
    """" did you mean 'challenge'?" for a first word close to a known one, else ""."""
    first = text.split()[0].lower() if text.split() else ""
    if not first or first in words:
        return ""
    close = difflib.get_close_matches(first, words, n=1, cutoff=0.7)
    return f" Did you mean '[bold]{escape(close[0])}[/bold]'?" if close else ""


@dataclass
class Player:
    """The person at one seat, and how the loop talks to them."""

    screen: Screen
    seat: int
    console: Console
    ask: Callable[[str], str]
    save: Path | None = None
    hints: bool = False
    complete_with: Callable[[NextWords], None] | None = None  # Tab's words for a turn
    errors: Console = field(default_factory=error_console)
    _suggestion: tuple[Session, Any] | None = field(default=None, init=False)

    def suggestion(self, session: Session) -> Any:
        """The adviser's move for this turn, worked out once (``hint`` then ``auto``)."""
        if self._suggestion is None or self._suggestion[0] is not session:
            self._suggestion = (session, self.screen.suggest(session))
        return self._suggestion[1]

    def print_help(self, session: Session) -> None:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column()  # the descriptions wrap within their own column
        rows = [*self.screen.help_rows(session),
                *((f"[bold]{w}[/bold]", text.format(adviser=self.screen.adviser))
                  for w, text in COMMANDS)]
        for what, text in rows:
            grid.add_row(what, text)
        self.console.print("[bold]Your turn.[/bold] Type one action or command "
                           "(case does not matter):")
        self.console.print(grid)

    def words(self) -> list[str]:
        return [*self.screen.words, *(w for w, _ in COMMANDS), *ALIASES]

    def turn(self, session: Session) -> tuple[Any, Session, tuple[Event, ...]]:
        """Ask until the person types a legal action; bad input changes nothing.
        Returns the action and what it led to."""
        screen = self.screen
        screen.show_turn(session)
        if self.hints:
            self.print_lines(screen.hint_lines(session, self.suggestion(session)))
        if self.complete_with is not None:
            commands = [w for w, _ in COMMANDS]
            self.complete_with(lambda done: [*screen.next_words(session, done),
                                             *(commands if not done else ())])
        while True:
            text = self.ask("your action> ").strip()
            word = ALIASES.get(text.lower(), text.lower())
            if not text:
                continue
            if word == "help":
                self.print_help(session)
            elif word == "quit":
                raise Quit
            elif word == "table":
                screen.show_table(session)
            elif word == "rules":
                self.console.print(escape(screen.rules_text(session)))
            elif word.split()[0] == "rules":
                run_rules(word.split()[1:], self.console, self.errors)
            elif word == "hint":
                self.print_lines(screen.hint_lines(session, self.suggestion(session)))
            elif word == "auto":
                action = self.suggestion(session)
                self.console.print(f"[dim](auto: {escape(session.format_action(action))})"
                                   "[/dim]")
                return (action, *session.apply(action))
            elif not screen.command(word, session):
                try:
                    action = session.parse_action(text)
                    return (action, *session.apply(action))
                except UsotsukiError as exc:
                    self.console.print(screen.error_text(exc, session,
                                                         did_you_mean(text, self.words())))

    def print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.console.print(line)


class Saver:
    """Writes the record after every step; a failed write is said and the game goes on."""

    def __init__(self, path: Path | None, errors: Console) -> None:
        self.path, self.errors = path, errors

    def __call__(self, session: Session) -> None:
        if self.path is None:
            return
        try:
            record = session.record()
        except UsotsukiError:  # nothing dealt yet: nothing to keep
            return
        if session.fairness is not None:  # the terminal plays both sides: it keeps the
            record["fairness"] = session.fairness.to_json()  # secret for --resume
        try:
            save_record(self.path, record)
        except OSError as exc:  # a full disk must not end the game; say so and go on
            print_error(self.errors, f"could not save {self.path}: "
                                     f"{exc.strerror or exc}")


def play(session: Session, player: Player, bots: dict[int, AnyBot], *,
         deal_rng: random.Random, bot_rng: random.Random, delay: float = 0.0,
         sleep: Callable[[float], None] = time.sleep, resumed: bool = False) -> int:
    """Play ``session`` to its end with ``player`` at their seat and ``bots`` at the
    others; return the exit status (see the module's docstring). ``resumed``: the
    session was rebuilt from a saved record, so the table is shown before play goes on."""
    console, screen = player.console, player.screen
    saved = Saver(player.save, player.errors)
    console.print(screen.intro(session))
    if session.fairness is not None and not resumed:
        console.print(f"[dim]Deals committed to (docs/fairness.md; usotsuki verify checks "
                      f"a saved record):\n{session.fairness.commitment}[/dim]")
    if resumed:
        screen.show_resumed(session)
    try:
        # ``session`` is always the game as shown: a step is shown before it is kept
        while not session.is_over:
            if session.chance_due:
                after, events = session.deal(session.draw_chance(
                    chance_source(session, deal_rng)))
                screen.show_deal(after, events)
                session = after
                saved(session)
                continue
            mover = session.to_move
            assert mover is not None
            if mover == player.seat:
                action, after, events = player.turn(session)
            else:
                action = bots[mover].act(session.view(mover), session.legal(), bot_rng)
                after, events = session.apply(action)
            screen.show_step(session, after, mover, action, events)
            session = after
            saved(session)
            if delay and mover != player.seat:
                sleep(delay)
    except EOFError:
        saved(session)
        console.print("\n[yellow]Left the game (end of input).[/yellow]" + _kept(player.save),
                      soft_wrap=True)
        return DONE
    except (KeyboardInterrupt, Quit):
        saved(session)
        console.print("\n[yellow]Left the game.[/yellow]" + _kept(player.save),
                      soft_wrap=True)
        return LEFT
    screen.show_end(session)
    console.print(f"The record is saved in [bold]{escape(str(player.save))}[/bold] "
                  f"(replay it with: usotsuki replay {escape(str(player.save))})."
                  if player.save is not None else
                  "[dim]The record was not saved (--save FILE keeps it).[/dim]",
                  soft_wrap=True)  # a path stays whole, to copy
    return DONE


def _kept(save: Path | None) -> str:
    return f" The record so far is in {escape(str(save))}." if save is not None else ""
