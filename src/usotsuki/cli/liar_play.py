"""The Liar Game in the terminal: one person against bots (a shell over the rules core).

The shell deals, asks bots and the person for actions through a :class:`LiarSession`,
and shows the person's seat only what that seat may see (its view, the events visible to
it); the core decides every rule. With ``--save`` the record is written after every deal
and action, atomically, so an interrupted game or match loses nothing.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from usotsuki import liar
from usotsuki.bots.base import LiarBot, make_bot
from usotsuki.chance import game_rng
from usotsuki.cli import liar_render as render
from usotsuki.cli.records import save_record
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.events import Event, events_for
from usotsuki.liar.events import Event as LiarEvent
from usotsuki.session import LiarSession

HELP = """[bold]Your turn.[/bold] Type one action (case does not matter):
  [bold]play 4H 4D as 7[/bold]  put these cards face down declaring one rate; they need
                   not be 7s (that is the lie). Cards 7H TD 10S Q♥, rates 2-9 T J Q K A
  [bold]pass[/bold]             draw the top card of the stock (L6)
  [bold]doubt[/bold]            turn the current play face up (L9): if it is a lie its
                   player draws the whole field, if it is truthful you do
  [bold]accept[/bold]           let a play that emptied a hand stand: its player wins (L10)
  [bold]give 3S 4D[/bold]       your cards for a class exchange before a game (O7)
  [bold]hint[/bold]             what the sensible bot would do in your place (it sees your view)
  [bold]auto[/bold]             let the sensible bot make this move for you
  [bold]table[/bold]            show the table again
  [bold]rules[/bold]            the rules in force
  [bold]help[/bold]             this text
  [bold]quit[/bold]             leave (with --save the record so far stays saved)"""


class Quit(Exception):
    """The person asked to leave."""


@dataclasses.dataclass(frozen=True)
class LiarOptions:
    """The options of ``usotsuki play liar`` as typed; :func:`setup` checks them."""

    players: int = 4
    seat: int = 0
    seed: int | None = None
    save: Path | None = None
    rules: str = ""  # parse_rules_text: "multi,revolution", "all", "hand_size=5"
    games: int = 1
    hand_size: int | None = None
    deal_all: bool | None = None
    final_doubt: bool | None = None
    turn_limit: int | None = None
    bots: str = "sensible"
    delay: float = 0.0
    hints: bool = False  # show the odds and a suggested move at each turn (issue 4)


def make_rules(opts: LiarOptions) -> liar.LiarRules:
    """``--rules`` text, then the dedicated flags on top (a flag given wins).

    :raises InvalidRules: for an unknown name, a bad value or options that do not combine.
    """
    flags = {name: value for name, value in (("hand_size", opts.hand_size),
                                              ("deal_all", opts.deal_all),
                                              ("final_doubt", opts.final_doubt),
                                              ("turn_limit", opts.turn_limit))
             if value is not None}
    return liar.parse_rules_text(opts.rules, opts.players, **flags)


def make_bots(kinds_text: str, players: int, seat: int) -> dict[int, LiarBot]:
    kinds = [k.strip() for k in kinds_text.split(",") if k.strip()] or ["sensible"]
    others = [s for s in range(players) if s != seat]
    return {s: make_bot("liar", kinds[i % len(kinds)]) for i, s in enumerate(others)}


def run_liar(opts: LiarOptions, *, console: Console | None = None,
             ask: Callable[[str], str] | None = None) -> int:
    """Play a game or match; return the exit status (0 done, 1 bad options, 130 left)."""
    console = console or Console(highlight=False)
    ask = ask or console.input
    try:
        rules = make_rules(opts)
        if not 0 <= opts.seat < opts.players:
            raise ValueError(f"--seat must be from 0 to {opts.players - 1}, not {opts.seat}")
        if opts.delay < 0:
            raise ValueError(f"--delay must be 0 or more seconds, not {opts.delay}")
        if opts.save is not None and not opts.save.parent.is_dir():
            raise ValueError(f"--save: there is no folder {opts.save.parent}")
        bots = make_bots(opts.bots, opts.players, opts.seat)
        names = tuple("You" if s == opts.seat else f"{bots[s].name} {s}"
                      for s in range(opts.players))
        deal_rng = game_rng(opts.seed)
        # Part 4: a live game's flush seed comes from a secure source; a seeded one is
        # derived from --seed so that the same seed plays the same game.
        flush_seed = deal_rng.getrandbits(64) if opts.seed is not None else liar.new_seed()
        session = LiarSession.create(rules, flush_seed, opts.games, names)
    except (UsotsukiError, ValueError) as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        return 1
    bot_rng = random.Random(deal_rng.getrandbits(64))
    table = _Table(console, names, opts.seat, opts.save, opts.games)
    table.hints = opts.hints
    console.print(f"[bold]Liar Game[/bold]: {escape(render.rules_text(rules, opts.games))}. "
                  f"You are seat {opts.seat}. Type [bold]help[/bold] at your turn.")
    try:
        while not session.is_over:
            if session.chance_due:
                session, events = session.deal(session.draw_chance(deal_rng))
                table.saved(session)
                table.show_game_start(session, events)
                continue
            mover = session.to_move
            assert mover is not None
            if mover == opts.seat:
                session, events = table.ask_action(session, ask)
            else:
                legal = session.legal()
                assert legal is not None
                action = bots[mover].act(session.view(mover), legal, bot_rng)
                session, events = session.apply(action)
                if opts.delay:
                    time.sleep(opts.delay)
            table.saved(session)
            table.show_events(events)
            if session.state is not None and session.state.is_over:
                table.show_game_end(session)
    except (KeyboardInterrupt, EOFError, Quit):
        table.saved(session)
        console.print("\n[yellow]Left the game.[/yellow]" +
                      (f" The record so far is in {escape(str(opts.save))}." if opts.save
                       else ""))
        return 130
    table.show_match_end()
    return 0


class _Table:
    """Rendering and input for one seat; it reads only that seat's view and events."""

    def __init__(self, console: Console, names: Sequence[str], seat: int, save: Path | None,
                 games: int) -> None:
        self.console, self.seat, self.save, self.games = console, seat, save, games
        self.adviser = make_bot("liar", "sensible")
        self.names = render.Names(names, seat)
        self.hints = False
        self.results: list[tuple[tuple[tuple[int, ...], ...], int | None]] = []

    def saved(self, session: LiarSession) -> None:
        if self.save is None or session.match is None:
            return
        try:
            save_record(self.save, session.record())
        except OSError as exc:  # a full disk must not end the game; say so and go on
            self.console.print(f"[red]could not save {escape(str(self.save))}: "
                               f"{escape(exc.strerror or str(exc))}[/red]")

    def print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.console.print(line)

    def show_events(self, events: Sequence[Event]) -> None:
        mine = [e for e in events_for(events, self.seat) if isinstance(e, LiarEvent)]
        self.print_lines(render.events_lines(mine, self.names))

    def show_game_start(self, session: LiarSession, events: Sequence[Event]) -> None:
        v = session.view(self.seat)
        title = f"Game {v.game + 1} of {self.games}" if self.games > 1 else "The game"
        self.console.rule(title)
        if v.classes:
            self.console.print(render.classes_line(v.classes, self.names))
        self.show_events(events)
        self.console.print(f"Your hand: [bold]{render.hand_text(v.hand or ())}[/bold]")
        if v.to_move is not None and not v.owed:
            self.console.print(f"{self.names.verb(v.to_move, 'lead')} "
                               "(L4: the holder of 3S, else of the lowest card dealt).")

    def show_table(self, session: LiarSession) -> None:
        v = session.view(self.seat)
        self.print_lines(render.table_lines(v, self.names))
        self.console.print(f"Your hand: [bold]{render.hand_text(v.hand or ())}[/bold]")

    def ask_action(self, session: LiarSession, ask: Callable[[str], str]
                   ) -> tuple[LiarSession, tuple[Event, ...]]:
        """Ask until the person types a legal action; bad input changes nothing."""
        v = session.view(self.seat)
        legal = session.legal()
        assert legal is not None
        self.console.rule(style="dim")
        self.show_table(session)
        self.console.print(f"[dim]You may {render.legal_text(v, legal, self.names)}; "
                           "'help' for more.[/dim]")
        if self.hints:
            self.print_lines(hint_lines(v, legal, session, self.names))
        while True:
            text = ask("your action> ").strip()
            word = text.lower()
            if word in ("help", "?"):
                self.console.print(HELP)
            elif word in ("quit", "exit"):
                raise Quit
            elif word in ("table", "hand", "look"):
                self.show_table(session)
            elif word in ("hint", "auto"):
                # seeded from the view, so asking never changes the bots' draws
                action = self.adviser.act(v, legal, random.Random(liar.info_key(v)))
                text = session.format_action(action)
                if word == "auto":
                    self.console.print(f"[dim](auto: {text})[/dim]")
                    return session.apply(action)
                self.console.print(f"The sensible bot would type: [bold]{text}[/bold]")
            elif word == "rules":
                self.console.print(escape(render.rules_text(v.rules, self.games)))
            elif text:
                try:
                    return session.apply(session.parse_action(text))
                except UsotsukiError as exc:
                    self.console.print(f"[red]{escape(str(exc))}[/red]  "
                                       f"[dim](you may {render.legal_text(v, legal, self.names)};"
                                       " 'help' for examples)[/dim]")

    def show_game_end(self, session: LiarSession) -> None:
        state = session.state
        assert state is not None and state.standings is not None
        v = session.view(self.seat)
        self.results.append((state.standings, state.winner))
        self.console.rule(f"Game {v.game + 1} over" if self.games > 1 else "Game over")
        self.print_lines(render.standings_lines(state.standings, v.hand_sizes, self.names))

    def show_match_end(self) -> None:
        if self.games < 2:
            return
        self.console.rule("Match over")
        for number, (standings, winner) in enumerate(self.results, 1):
            won = self.names[winner] if winner is not None else "no winner (turn limit)"
            places = " | ".join(", ".join(self.names[s] for s in p) for p in standings)
            self.console.print(f"Game {number}: {won}.  Places: {places}")
        wins = [w for _, w in self.results if w is not None]
        best = max(set(wins), key=wins.count) if wins else None
        if best is not None:
            self.console.print(f"Most games won: {self.names[best]} ({wins.count(best)})")


def hint_lines(v: liar.LiarView, legal: liar.LegalSummary, session: LiarSession,
               names: render.Names) -> list[str]:
    """``--hints``: the odds that the current play is truthful (exact, uniform over the
    cards you cannot see; and the belief from how people declare), and the ``expert``
    bot's suggestion. Its generator is seeded from the view, so hints never change the
    bots' draws: the same seed plays the same game with or without hints."""
    from usotsuki.bots.liar_belief import truth_belief
    from usotsuki.odds_liar import truth_probability

    lines = []
    odds = truth_probability(v)
    if odds is not None and v.field:
        current = v.field[-1]
        belief = truth_belief(v)
        claim = f"{current.count} card{'s' if current.count > 1 else ''} as " \
                f"{liar.RATE_NAMES[current.rate]}"
        lines.append(f"[cyan]hint:[/cyan] {names[current.seat]}'s {claim} is true "
                     f"with probability {odds:.2f} given your cards (uniform over the cards "
                     f"you cannot see); {belief if belief is None else f'{belief:.2f}'} "
                     "allowing for how people declare")
    adviser = make_bot("liar", "expert")
    action = adviser.act(v, legal, random.Random(liar.info_key(v)))
    lines.append(f"[cyan]hint:[/cyan] the expert bot suggests "
                 f"[bold]{escape(session.format_action(action))}[/bold]")
    return lines
