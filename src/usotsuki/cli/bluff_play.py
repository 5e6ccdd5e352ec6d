"""Bluff in the terminal: one person against bots.

The rendering of Bluff for :mod:`usotsuki.cli.loop`, the play loop both games share: it
reads only the person's view and the rounds' public results; the core decides every rule.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from usotsuki.bluff.actions import Call, CallKind, lowest_rank, stronger_calls
from usotsuki.bluff.rules import BluffRules
from usotsuki.bluff.state import RoundResult, call_cards
from usotsuki.bluff.view import BluffView
from usotsuki.bots.base import AnyBot
from usotsuki.bots.bluff.hints import ADVISER, BluffHint, bluff_hint, suggestion_reason
from usotsuki.cards import RANKS, Card
from usotsuki.chance import game_rng
from usotsuki.cli.loop import BAD_OPTIONS, Session, check_common, make_bots, make_player, play
from usotsuki.cli.prompt import words_after
from usotsuki.cli.rule_refs import IN_GAME, see_rules
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.cli.text import fit
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.events import Event
from usotsuki.fairness import local_fairness
from usotsuki.odds import call_probability
from usotsuki.session import BluffSession

WORDS: Sequence[str] = ("challenge", "odds", *(kind.word for kind in CallKind))


def call_examples(calls: Sequence[Call]) -> list[str]:
    """One call of each type among ``calls`` (weakest type first), taken from the middle
    of that type's calls: examples that are legal where they are shown (B13's short deck
    has no 'card 7')."""
    by_kind: dict[CallKind, list[Call]] = {}
    for call in calls:
        by_kind.setdefault(call.kind, []).append(call)
    return [str(of[len(of) // 2]) for of in by_kind.values()]


def help_rows(ranks: int) -> tuple[tuple[str, str], ...]:
    """The actions' help for a deck of the ``ranks`` highest ranks (B13)."""
    deck = " ".join(RANKS[lowest_rank(ranks):]).replace("T", "T (or 10)")
    return (
        ("a call", "stronger than the current one; types, weakest first: "
         f"{', '.join(call_examples(stronger_calls(None, ranks)))}"),
        ("", f"ranks {deck}; suits S H D C or ♠ ♥ ♦ ♣"),
        ("[bold]challenge[/bold]", "reveal all hands: a false call loses for its caller, a "
         "true one for you (B8-B9)"),
        ("[bold]odds[/bold]", "how likely the current call is, given your cards"),
    )


def run_bluff(*, players: int, seat: int, seed: int | None, save: Path | None,
              max_cards: int = 5, dealer: int = 0, bots: str = "normal", delay: float = 0.0,
              hints: bool = False, console: Console | None = None,
              ask: Callable[[str], str] | None = None,
              sleep: Callable[[float], None] = time.sleep, ranks: int = 13,
              errors: Console | None = None) -> int:
    """Play one game; return the exit status (see :mod:`usotsuki.cli.loop`)."""
    errors = errors or error_console()
    try:
        rules = BluffRules(players=players, max_cards=max_cards, dealer=dealer, ranks=ranks)
        check_common(players=players, seat=seat, delay=delay, save=save)
        seats = make_bots("bluff", bots, players, seat)
    except (UsotsukiError, ValueError) as exc:
        print_error(errors, str(exc))
        return BAD_OPTIONS
    names = tuple("You" if s == seat else f"{seats[s].name} {s}" for s in range(players))
    session = BluffSession.create(rules, names, local_fairness(seat, seed))
    return go_on_bluff(session, seat, seats, seed=seed, save=save, delay=delay, hints=hints,
                       console=console, ask=ask, sleep=sleep, errors=errors)


def go_on_bluff(session: BluffSession, seat: int, bots: Mapping[int, AnyBot], *,
                seed: int | None, save: Path | None, delay: float, hints: bool,
                console: Console | None, ask: Callable[[str], str] | None,
                sleep: Callable[[float], None], errors: Console,
                resumed: bool = False) -> int:
    """Play a new or resumed game (``resumed``: rebuilt from its record) to its end."""
    console = console or Console(highlight=False)
    rng = game_rng(seed)
    bot_rng = random.Random(rng.getrandbits(64))
    screen = BluffScreen(console, session.names or (), seat)
    player = make_player(screen, seat, console, ask, save=save, hints=hints, errors=errors)
    return play(session, player, dict(bots), deal_rng=rng, bot_rng=bot_rng,
                delay=delay, sleep=sleep, resumed=resumed)


class BluffScreen:
    """Bluff for one seat: it reads only that seat's view and the rounds' results."""

    adviser = ADVISER
    words = WORDS

    def __init__(self, console: Console, names: Sequence[str], seat: int) -> None:
        self.console, self.names, self.seat = console, list(names), seat
        self._hint: tuple[Session, BluffHint] | None = None

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` agreeing with the seat's name ("You call", "cautious 2 calls")."""
        return verb if seat == self.seat else verb + "s"

    def possessive(self, seat: int) -> str:
        return "your" if seat == self.seat else f"{escape(self.names[seat])}'s"

    def name(self, seat: int) -> str:
        return escape(self.names[seat])

    def view(self, session: Session) -> BluffView:
        v = session.view(self.seat)
        assert isinstance(v, BluffView)
        return v

    def intro(self, session: Session) -> str:
        v = self.view(session)
        deck = "" if v.ranks == 13 else \
            f" Short deck: {RANKS[13 - v.ranks]} to A, {4 * v.ranks} cards (B13)."
        return (f"[bold]Bluff[/bold]: {v.players} players, {v.max_cards} cards eliminate."
                f"{deck} You are seat {self.seat}. Type [bold]help[/bold] at your turn.")

    def help_rows(self, session: Session) -> Sequence[tuple[str, str]]:
        return help_rows(self.view(session).ranks)

    def next_words(self, session: Session, done: Sequence[str]) -> Iterable[str]:
        return words_after(map(str, session.legal()), done)

    def show_deal(self, session: Session, events: Sequence[Event]) -> None:
        v = self.view(session)
        self.console.rule(f"Round {v.round + 1} (dealer: {self.name(v.dealer)})")
        self.show_counts(v)
        if not v.hand:
            self.console.print("You are out; watching.")
        elif v.to_move != self.seat:  # else the turn shows it at once
            self.console.print(f"Your hand: [bold]{_cards(v.hand)}[/bold]")

    def show_resumed(self, session: Session) -> None:
        v = self.view(session)
        if session.chance_due:
            self.console.print(f"Resumed after round {v.round}.")
            return
        self.console.rule(f"Round {v.round + 1}, resumed (dealer: {self.name(v.dealer)})")
        if session.to_move != self.seat:  # else the turn shows the table at once
            self.show_table(session)

    def show_counts(self, v: BluffView) -> None:
        counts = [f"{self.name(s)}: {n}" for s, n in enumerate(v.hand_sizes) if n]
        for line in fit([f"Cards in play: {v.cards_in_play}", *counts], self.console.width):
            self.console.print(line)

    def status(self, v: BluffView) -> str:
        current = v.current_call
        if current is None:
            return "no call yet this round: you call first"
        return f"current call: [bold]{current}[/bold] by {self.name(v.calls[-1][0])}"

    def may(self, session: Session) -> str:
        v, legal = self.view(session), session.legal()
        current = v.current_call
        if current is None:
            card, pair = call_examples(legal)[:2]
            return f"any call, e.g. '{card}' or '{pair}'"
        if len(legal) == 1:
            return "challenge"
        return f"a call stronger than {current} (from {legal[0]}), or challenge"

    def show_turn(self, session: Session) -> None:
        v = self.view(session)
        self.console.print(f"Your hand: [bold]{_cards(v.hand or ())}[/bold]")
        self.console.print(self.status(v))
        self.console.print(f"[dim]You may type {self.may(session)}; 'help' for more.[/dim]")

    def show_table(self, session: Session) -> None:
        v = self.view(session)
        self.console.print(f"Round {v.round + 1}, dealer {self.name(v.dealer)}; "
                           f"{v.max_cards} cards eliminate (B2).")
        self.show_counts(v)
        out = [self.name(s) for s in v.eliminated]
        if out:
            self.console.print(f"Out of the game: {', '.join(out)}")
        if v.calls:
            calls = [f"{self.name(s)}: {c}" for s, c in v.calls]
            for line in fit([f"Calls this round: {calls[0]}", *calls[1:]], self.console.width,
                            sep=", "):
                self.console.print(line)
        self.console.print(self.status(v))
        self.console.print(f"Your hand: [bold]{_cards(v.hand or ())}[/bold]")

    def rules_text(self, session: Session) -> str:
        v = self.view(session)
        return (f"Bluff, {v.players} players: each call must be stronger than the last "
                f"(B5-B7) or be challenged; a challenge reveals every hand and the call is "
                f"true when the cards of all hands together hold it (B8). The loser takes "
                f"one more card next round and is out on losing with {v.max_cards} (B2-B3)."
                + ("" if v.ranks == 13 else f" Short deck: {RANKS[13 - v.ranks]} to A, "
                   f"{4 * v.ranks} cards; only calls it can hold (B13).") + "\n" + IN_GAME)

    def error_text(self, exc: UsotsukiError, session: Session, did_you_mean: str) -> str:
        text = (f"[red]{escape(str(exc))}[/red]{see_rules(str(exc), 'rules')}{did_you_mean}  "
                f"[dim](you may type {self.may(session)}; 'help' for examples)[/dim]")
        if len(session.legal()) == 1:
            text += "\nNothing is stronger: you must [bold]challenge[/bold]."
        return text

    def hint(self, session: Session) -> BluffHint:
        if self._hint is None or self._hint[0] is not session:
            self._hint = (session, bluff_hint(self.view(session), session.legal()))
        return self._hint[1]

    def suggest(self, session: Session) -> Any:
        return self.hint(session).suggestion

    def hint_lines(self, session: Session, suggestion: Any) -> list[str]:
        """How likely the current call is, each way labelled in English and Japanese
        (:class:`~usotsuki.bots.hints.TruthHint`: given how people play, when a
        calibrated belief exists; from the cards alone, the exact odds), and the
        adviser's suggestion: the move ``auto`` makes."""
        hint, current = self.hint(session), self.view(session).current_call
        lines = []
        truth = hint.truth()
        if current is not None and truth is not None:
            lines.append(f"[cyan]hint:[/cyan] the chance that {current} is true:")
            lines += [f"[cyan]hint:[/cyan]   {line}" for line in truth.explained()]
        lines.append(f"[cyan]hint:[/cyan] the {ADVISER} bot suggests "
                     f"[bold]{session.format_action(suggestion)}[/bold]")
        lines.append(f"[cyan]hint:[/cyan]   ({suggestion_reason(self.view(session), suggestion)})")
        return lines

    def command(self, word: str, session: Session) -> bool:
        if word != "odds":
            return False
        v = self.view(session)
        if v.current_call is None:
            self.console.print("No call yet.")
        else:
            hand = v.hand or ()
            p = call_probability(v.current_call, hand, v.cards_in_play - len(hand), v.ranks)
            self.console.print(f"{v.current_call} is true with probability {p:.2f} given "
                               "your cards.")
        return True

    def show_step(self, before: Session, after: Session, seat: int, action: Any,
                  events: Sequence[Event]) -> None:
        if isinstance(action, Call):
            self.console.print(f"{self.name(seat)} {self.verb(seat, 'call')} "
                               f"[bold]{action}[/bold]")
            return
        assert isinstance(after, BluffSession)
        self.show_challenge(after.state.results[-1])

    def show_challenge(self, result: RoundResult) -> None:
        c = self.console
        c.print(f"{self.name(result.challenger)} "
                f"[bold]{self.verb(result.challenger, 'challenge')}[/bold] "
                f"{self.possessive(result.caller)} [bold]{result.call}[/bold]!")
        shown = set(call_cards(result.call, [x for hand in result.hands for x in hand]))
        table = Table("seat", "hand", show_header=False)
        for s, hand in enumerate(result.hands):
            if hand:
                # B8's evidence: marked with "*" as well as highlighted, so that it stays
                # visible without colour or styles (NO_COLOR, a pipe, a screen reader)
                text = " ".join(f"[reverse]{x}*[/reverse]" if x in shown else str(x)
                                for x in hand)
                table.add_row(self.name(s), text)
        c.print(table)
        c.print(f"[dim](* the cards {result.call} names, B8)[/dim]")
        verdict = "[bold green]TRUE[/bold green]" if result.call_true else \
            "[bold red]FALSE[/bold red]"
        be, take = ("are", "take") if result.loser == self.seat else ("is", "takes")
        out = f" and {be} [bold]out of the game[/bold]" if result.eliminated else \
            f" and {take} a card"
        c.print(f"The call is {verdict}: {self.name(result.loser)} "
                f"{self.verb(result.loser, 'lose')} the round{out}.")

    def show_end(self, session: Session) -> None:
        standings = session.standings or ()
        self.console.rule("Game over")
        for place, seats in enumerate(standings, 1):
            self.console.print(f"{place}. {', '.join(self.name(s) for s in seats)}")


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards)) or "-"
