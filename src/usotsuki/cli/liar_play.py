"""The Liar Game in the terminal: one person against bots (a shell over the rules core).

The rendering of the Liar Game for :mod:`usotsuki.cli.loop`, the play loop both games
share: it shows the person's seat only what that seat may see (its view, the events
visible to it); the core decides every rule.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from usotsuki import liar
from usotsuki.bots.base import AnyBot
from usotsuki.bots.liar.hints import ADVISER  # the bot behind hint, auto and --hints
from usotsuki.chance import game_rng
from usotsuki.cli import liar_render as render
from usotsuki.cli.loop import BAD_OPTIONS, Session, check_common, make_bots, make_player, play
from usotsuki.cli.rule_refs import IN_GAME, explained, see_rules
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.cli.text import plural
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.events import Event, events_for
from usotsuki.fairness import FairDeals, local_fairness
from usotsuki.liar.actions import CARD_RATE, RATES
from usotsuki.liar.events import Event as LiarEvent
from usotsuki.session import LiarSession

RATES_HELP = "cards like 7H TD 10S Q♥; rates 3-9 T J Q K A 2 (10 works too)"


def play_example(v: liar.LiarView, legal: liar.LegalSummary | None) -> str:
    """A play the person could type now: cards of their own hand, a count and a rate the
    rules allow (the first legal rate that their cards truly are, else the first)."""
    hand = v.hand or ()
    counts = legal.counts if legal is not None and legal.play else (1,)
    rates = legal.rates if legal is not None and legal.play else RATES
    for count in counts:
        for r in rates:
            honest = [c for c in hand if CARD_RATE[c] == r]
            if len(honest) >= count:
                return f"play {render.cards_text(honest[:count])} as {render.rate(r)}"
    return f"play {render.cards_text(hand[:counts[0]])} as {render.rate(rates[0])}"


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
    hints: bool = False  # show the odds and a suggested move at each turn


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


def run_liar(opts: LiarOptions, *, console: Console | None = None,
             ask: Callable[[str], str] | None = None,
             sleep: Callable[[float], None] = time.sleep,
             errors: Console | None = None) -> int:
    """Play a game or match; return the exit status (see :mod:`usotsuki.cli.loop`)."""
    errors = errors or error_console()
    try:
        rules = make_rules(opts)
        check_common(players=opts.players, seat=opts.seat, delay=opts.delay, save=opts.save)
        bots = make_bots("liar", opts.bots, opts.players, opts.seat)
        names = tuple("You" if s == opts.seat else f"{bots[s].name} {s}"
                      for s in range(opts.players))
        deal_rng = game_rng(opts.seed)  # the bots' draws
        # docs/fairness.md: the deals and the flush seed derive from the game's secret
        # (and from --seed when given, so that the same seed plays the same game)
        fairness = local_fairness(opts.seat, opts.seed)
        session = LiarSession.create(rules, FairDeals.of(fairness).liar_seed(), opts.games,
                                     names, fairness)
    except (UsotsukiError, ValueError) as exc:
        print_error(errors, str(exc))
        return BAD_OPTIONS
    return go_on_liar(session, opts.seat, bots, deal_rng, save=opts.save, delay=opts.delay,
                      hints=opts.hints, console=console, ask=ask, sleep=sleep, errors=errors)


def go_on_liar(session: LiarSession, seat: int, bots: Mapping[int, AnyBot],
               deal_rng: random.Random, *, save: Path | None, delay: float, hints: bool,
               console: Console | None, ask: Callable[[str], str] | None,
               sleep: Callable[[float], None], errors: Console,
               resumed: bool = False) -> int:
    """Play a new or resumed game or match (``resumed``: rebuilt from its record)."""
    console = console or Console(highlight=False)
    bot_rng = random.Random(deal_rng.getrandbits(64))
    screen = LiarScreen(console, session.names or (), seat, session.games)
    player = make_player(screen, seat, console, ask, save=save, hints=hints, errors=errors)
    return play(session, player, dict(bots), deal_rng=deal_rng, bot_rng=bot_rng,
                delay=delay, sleep=sleep, resumed=resumed)


class LiarScreen:
    """The Liar Game for one seat: it reads only that seat's view and events."""

    adviser = ADVISER
    words: Sequence[str] = ("play", "pass", "doubt", "accept", "give", "odds")

    def __init__(self, console: Console, names: Sequence[str], seat: int, games: int) -> None:
        self.console, self.seat, self.games = console, seat, games
        self.names = render.Names(names, seat)
        self.results: list[tuple[tuple[tuple[int, ...], ...], int | None]] = []

    def intro(self, session: Session) -> str:
        assert isinstance(session, LiarSession)
        return (f"[bold]Liar Game[/bold]: {escape(render.rules_text(session.rules, self.games))}"
                f". You are seat {self.seat}. Type [bold]help[/bold] at your turn.")

    def help_rows(self, session: Session) -> Sequence[tuple[str, str]]:
        """The actions, with an example play from the person's own hand and rows only
        for the rules in force (accept: L10's final doubt; give: O7's classes)."""
        assert isinstance(session, LiarSession)
        v, rules = session.view(self.seat), session.rules
        rows = [(f"[bold]{play_example(v, session.legal())}[/bold]",
                 "put these cards face down declaring one rate; they need not be of that "
                 f"rate (that is the lie). {RATES_HELP}"),
                ("[bold]pass[/bold]", "draw the top card of the stock (L6)"),
                ("[bold]doubt[/bold]", "turn the current play face up (L9): if it is a lie "
                 "its player draws the whole field, if it is truthful you do"),
                ("[bold]odds[/bold]", "how likely the current play is truthful, two ways")]
        if rules.final_doubt:
            rows.append(("[bold]accept[/bold]", "let a play that emptied a hand stand: its "
                         "player wins (L10)"))
        if rules.classes:
            give = render.cards_text((v.hand or ())[:2])
            rows.append((f"[bold]give {give}[/bold]", "your cards for a class exchange "
                         "before a game (O7)"))
        return rows

    def next_words(self, session: Session, done: Sequence[str]) -> Iterable[str]:
        legal = session.legal()
        assert isinstance(legal, liar.LegalSummary)
        hand = [str(c) for c in session.view(self.seat).hand or ()]
        if not done:
            return [word for word, ok in (("play", legal.play), ("pass", legal.pass_),
                                          ("doubt", legal.doubt), ("accept", legal.accept),
                                          ("give", legal.give), ("odds", legal.doubt)) if ok]
        typed = {w.upper() for w in done[1:]}
        cards = [c for c in hand if c not in typed]
        if done[0] == "give" and legal.give:
            return cards
        if done[0] != "play" or not legal.play:
            return []
        if "as" in done:
            return [] if done[-1] != "as" else [render.rate(r) for r in legal.rates]
        count = len(done) - 1
        return [*(cards if count < legal.counts[-1] else ()),
                *(["as"] if count in legal.counts else [])]

    def print_lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            indent = len(line) - len(line.lstrip(" "))
            if indent:  # a wrapped line keeps its indent at 80 columns
                self.console.print(Padding(Text.from_markup(line[indent:]), (0, 0, 0, indent),
                                           expand=False))
            else:
                self.console.print(line)

    def show_events(self, events: Sequence[Event]) -> None:
        mine = [e for e in events_for(events, self.seat) if isinstance(e, LiarEvent)]
        self.print_lines(render.events_lines(mine, self.names))

    def show_deal(self, session: Session, events: Sequence[Event]) -> None:
        v = session.view(self.seat)
        title = f"Game {v.game + 1} of {self.games}" if self.games > 1 else "The game"
        self.console.rule(title)
        if v.classes:
            self.console.print(render.classes_line(v.classes, self.names))
        self.show_events(events)
        if v.to_move != self.seat:  # else the turn shows the hand at once
            self.console.print(f"Your hand: [bold]{render.hand_text(v.hand or ())}[/bold]")
        if v.to_move is not None and not v.owed:
            self.console.print(f"{self.names.verb(v.to_move, 'lead')} "
                               "(L4: the holder of 3S, else of the lowest card dealt).")

    def show_resumed(self, session: Session) -> None:
        if session.chance_due:
            return  # the next game's deal follows at once
        v = session.view(self.seat)
        title = f"game {v.game + 1} of {self.games}" if self.games > 1 else "the game"
        self.console.print(f"[bold]Resumed[/bold] {title} from its record.")
        if session.to_move != self.seat:  # else the turn shows the table at once
            self.show_table(session)

    def show_table(self, session: Session) -> None:
        v = session.view(self.seat)
        self.print_lines(render.table_lines(v, self.names, self.console.width))
        self.console.print(f"Your hand: [bold]{render.hand_text(v.hand or ())}[/bold]")

    def may(self, session: Session) -> str:
        legal = session.legal()
        assert legal is not None
        return render.legal_text(session.view(self.seat), legal, self.names)

    def show_turn(self, session: Session) -> None:
        self.console.rule(style="dim")
        self.show_table(session)
        self.console.print(f"[dim]You may {self.may(session)}; 'help' for more.[/dim]")

    def rules_text(self, session: Session) -> str:
        assert isinstance(session, LiarSession)
        in_force = [code for name, code in render.HOUSE_RULE_NUMBERS.items()
                    if getattr(session.rules, name)]
        return "\n".join([render.rules_text(session.rules, self.games), *explained(in_force),
                          IN_GAME])

    def error_text(self, exc: UsotsukiError, session: Session, did_you_mean: str) -> str:
        return (f"[red]{render.name_seats(str(exc), self.names)}[/red]"
                f"{see_rules(str(exc), 'rules')}{did_you_mean}  "
                f"[dim](you may {self.may(session)}; 'help' for examples)[/dim]")

    def suggest(self, session: Session) -> Any:
        from usotsuki.bots.liar.hints import suggest

        return suggest(session.view(self.seat), session.legal())

    def hint_lines(self, session: Session, suggestion: Any) -> list[str]:
        from usotsuki.bots.liar.hints import suggestion_reason

        v = session.view(self.seat)
        return hint_lines(v, session.format_action(suggestion), self.names,
                          suggestion_reason(v, suggestion))

    def command(self, word: str, session: Session) -> bool:
        """``odds``: how likely the current play is truthful, both ways, each saying what
        it assumes (the hint's numbers, without the suggestion)."""
        from usotsuki.bots.liar.hints import liar_truth_hint

        if word != "odds":
            return False
        hint = liar_truth_hint(session.view(self.seat))
        if hint is None:
            self.console.print("No play of another player to judge.")
        else:
            self.print_lines(["The chance that the current play is truthful:",
                              *(escape(line) for line in hint.explained())])
        return True

    def show_step(self, before: Session, after: Session, seat: int, action: Any,
                  events: Sequence[Event]) -> None:
        self.show_events(events)
        assert isinstance(after, LiarSession)
        if after.state is not None and after.state.is_over:
            self.show_game_end(after)

    def show_game_end(self, session: LiarSession) -> None:
        state = session.state
        assert state is not None and state.standings is not None
        v = session.view(self.seat)
        self.results.append((state.standings, state.winner))
        self.console.rule(f"Game {v.game + 1} over" if self.games > 1 else "Game over")
        self.print_lines(render.standings_lines(state.standings, v.hand_sizes, self.names))

    def show_end(self, session: Session) -> None:
        if self.games < 2:
            return
        self.console.rule("Match over")
        for number, (standings, winner) in enumerate(self.results, 1):
            won = self.names[winner] if winner is not None else "no winner (turn limit)"
            places = " | ".join(", ".join(self.names[s] for s in p) for p in standings)
            self.console.print(f"Game {number}: {won}.  Places: {places}")
        self.console.print(match_winner_line([w for _, w in self.results], self.names))


def match_winner_line(winners: Sequence[int | None], names: render.Names) -> str:
    """Who won the most games of a match; a tie is said to be one, never broken silently."""
    wins = Counter(w for w in winners if w is not None)
    if not wins:
        return "No game of the match had a winner."
    most = max(wins.values())
    leaders = [names[s] for s in sorted(wins) if wins[s] == most]
    games = plural(most, "game")
    if len(leaders) == 1:
        return f"Most games won: {leaders[0]} ({games})"
    return (f"Most games won: a tie between {', '.join(leaders[:-1])} and {leaders[-1]} "
            f"({games} each)")


def hint_lines(v: liar.LiarView, suggestion: str, names: render.Names,
               reason: str = "") -> list[str]:
    """``hint`` and ``--hints``: how likely the current play is truthful, two ways, each
    labelled in English and Japanese (:mod:`usotsuki.bots.liar.hints`: given how people
    play, calibrated on self-play; from the cards alone, the exact odds), and the
    adviser's suggestion, the move ``auto`` would make, with its ``reason``. The
    adviser's generator is seeded from the view, so hints never change the bots' draws:
    the same seed plays the same game with or without hints."""
    from usotsuki.bots.liar.hints import liar_truth_hint

    lines = []
    hint = liar_truth_hint(v)
    if hint is not None and v.field:
        current = v.field[-1]
        claim = f"{plural(current.count, 'card')} as {liar.RATE_NAMES[current.rate]}"
        lines.append(f"[cyan]hint:[/cyan] the chance that {names[current.seat]}'s {claim} "
                     "is true:")
        lines += [f"[cyan]hint:[/cyan]   {escape(line)}" for line in hint.explained()]
    lines.append(f"[cyan]hint:[/cyan] the {ADVISER} bot suggests "
                 f"[bold]{escape(suggestion)}[/bold]")
    if reason:
        lines.append(f"[cyan]hint:[/cyan]   ({escape(reason)})")
    return lines
