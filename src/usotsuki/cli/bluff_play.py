"""Bluff in the terminal: one person against bots (a shell over the rules core).

The shell deals, asks bots and the person for actions, and shows each seat's view; the
core decides every rule. The record is saved after each action when ``--save`` is given,
so an interrupted game loses nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from usotsuki.bluff.actions import Action, Call
from usotsuki.bluff.deal import deal_hands
from usotsuki.bluff.notation import EXAMPLES, parse_action
from usotsuki.bluff.record import write_record
from usotsuki.bluff.rules import BluffRules
from usotsuki.bluff.state import (
    BluffState,
    RoundResult,
    apply,
    call_cards,
    legal_actions,
    new_game,
    start_round,
)
from usotsuki.bluff.view import BluffView, view
from usotsuki.bots.base import BluffBot, make_bot
from usotsuki.cards import RANKS, Card
from usotsuki.chance import game_rng
from usotsuki.cli.records import save_record
from usotsuki.core.errors import UsotsukiError
from usotsuki.odds import call_probability

HELP = f"""[bold]Your turn.[/bold] Type a call stronger than the current one, or challenge it.
  calls, weakest type first: {', '.join(EXAMPLES[:-1])}
  ranks 2-9 T J Q K A (10 works too); suits S H D C or ♠ ♥ ♦ ♣; case does not matter
  [bold]challenge[/bold]   reveal all hands: a false call loses for its caller, a true one for you
  [bold]odds[/bold]        how likely the current call is, given your cards
  [bold]hint[/bold]        the odds, also reading the others' calls, and the expert bot's advice
  [bold]help[/bold]        this text
  [bold]quit[/bold]        leave (the record so far is saved with --save)"""


class Quit(Exception):
    """The person asked to leave."""


def run_bluff(*, players: int, seat: int, seed: int | None, save: Path | None,
              max_cards: int = 5, dealer: int = 0, bots: str = "normal", delay: float = 0.0,
              hints: bool = False, console: Console | None = None,
              ask: Callable[[str], str] | None = None, ranks: int = 13) -> int:
    """Play one game; return the exit status (0 done, 1 bad options, 130 interrupted)."""
    console = console or Console(highlight=False)
    ask = ask or console.input
    try:
        rules = BluffRules(players=players, max_cards=max_cards, dealer=dealer, ranks=ranks)
        if not 0 <= seat < players:
            raise ValueError(f"--seat must be from 0 to {players - 1}, not {seat}")
        kinds = [k.strip() for k in bots.split(",") if k.strip()] or ["normal"]
        seats: dict[int, BluffBot] = {}
        for i, s in enumerate(s for s in range(players) if s != seat):
            seats[s] = make_bot("bluff", kinds[i % len(kinds)])
    except (UsotsukiError, ValueError) as exc:
        console.print(f"[red]{exc}[/red]")
        return 1
    names = [("You" if s == seat else f"{seats[s].name} {s}") for s in range(players)]
    rng = game_rng(seed)
    bot_rng = random.Random(rng.getrandbits(64))
    game = _Game(console, names, seat, save)
    game.hints = hints
    state = new_game(rules)
    deck = "" if ranks == 13 else \
        f" Short deck: {RANKS[13 - ranks]} to A, {4 * ranks} cards (B13)."
    console.print(f"[bold]Bluff[/bold]: {players} players, {max_cards} cards eliminate.{deck} "
                  f"You are seat {seat}. Type [bold]help[/bold] at your turn.")
    try:
        while not state.is_over:
            if state.needs_deal:
                state = start_round(state, deal_hands(state, rng)).state
                game.show_round(state)
                continue
            mover = state.to_move
            assert mover is not None
            if mover == seat:
                action = game.ask_action(state, ask)
            else:
                action = seats[mover].act(view(state, mover), legal_actions(state), bot_rng)
                if delay:
                    time.sleep(delay)
            state = apply(state, action).state
            game.saved(state)
            game.show_action(state, mover, action)
    except (KeyboardInterrupt, EOFError, Quit):
        game.saved(state)
        console.print("\n[yellow]Left the game.[/yellow]" +
                      (f" The record so far is in {save}." if save else ""))
        return 130
    game.show_standings(state)
    return 0


class _Game:
    """Rendering and input for one seat; it reads only that seat's view."""

    def __init__(self, console: Console, names: list[str], seat: int, save: Path | None):
        self.console, self.names, self.seat, self.save = console, names, seat, save
        self.hints = False  # --hints: odds and the expert bot's advice at each turn

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` agreeing with the seat's name ("You call", "cautious 2 calls")."""
        return verb if seat == self.seat else verb + "s"

    def possessive(self, seat: int) -> str:
        return "your" if seat == self.seat else f"{self.names[seat]}'s"

    def saved(self, state: BluffState) -> None:
        if self.save is not None:
            save_record(self.save, write_record(state, self.names))

    def show_round(self, state: BluffState) -> None:
        v = view(state, self.seat)
        counts = "  ".join(f"{self.names[s]}: {n}" for s, n in enumerate(v.hand_sizes) if n)
        self.console.rule(f"Round {v.round + 1} (dealer: {self.names[v.dealer]})")
        self.console.print(f"Cards in play: {v.cards_in_play}  ({counts})")
        if v.hand:
            self.console.print(f"Your hand: [bold]{_cards(v.hand or ())}[/bold]")
        else:
            self.console.print("You are out; watching.")

    def ask_action(self, state: BluffState, ask: Callable[[str], str]) -> Action:
        v = view(state, self.seat)
        legal = legal_actions(state)
        current = v.current_call
        if current is None:
            status, may = "you call first", "any call, e.g. 'card 7' or 'pair J'"
        else:
            status = f"current call: [bold]{current}[/bold] by {self.names[v.calls[-1][0]]}"
            may = "challenge" if len(legal) == 1 else \
                f"a call stronger than {current} (from {legal[0]}), or challenge"
        self.console.print(f"Your hand: [bold]{_cards(v.hand or ())}[/bold]   {status}")
        self.console.print(f"[dim]You may type {may}; 'help' for more.[/dim]")
        if self.hints:
            self.show_hint(v, legal)
        while True:
            text = ask("your action> ").strip()
            word = text.lower()
            if word in ("help", "?"):
                self.console.print(HELP)
            elif word in ("quit", "exit"):
                raise Quit
            elif word == "odds":
                self.show_odds(v)
            elif word == "hint":
                self.show_hint(v, legal)
            elif not text:
                continue
            else:
                try:
                    action = parse_action(text)
                    apply(state, action)  # the rules say whether it is legal
                    return action
                except UsotsukiError as exc:
                    self.console.print(f"[red]{exc}[/red]  (type 'help' for examples)")
                    if len(legal) == 1:
                        self.console.print("Nothing is stronger: you must [bold]challenge[/bold].")

    def show_odds(self, v: BluffView) -> None:
        if v.current_call is None:
            self.console.print("No call yet.")
            return
        hand = v.hand or ()
        p = call_probability(v.current_call, hand, v.cards_in_play - len(hand), v.ranks)
        self.console.print(f"{v.current_call} is true with probability {p:.2f} given your cards.")

    def show_hint(self, v: BluffView, legal: Sequence[Action]) -> None:
        """The current call's odds from your cards, the belief that also reads the others'
        calls, and the expert bot's suggestion (issue 4)."""
        from usotsuki.bots.bluff_hints import ADVISER, bluff_hint

        hint = bluff_hint(v, legal)
        current = v.current_call
        if current is not None and hint.odds is not None and hint.belief is not None:
            self.console.print(
                f"[cyan]hint:[/cyan] {current} is true with probability {hint.odds:.2f} "
                f"given your cards; {hint.belief:.2f} also reading the others' calls")
        self.console.print(f"[cyan]hint:[/cyan] the {ADVISER} bot suggests "
                           f"[bold]{hint.suggestion}[/bold]")

    def show_action(self, state: BluffState, seat: int, action: Action) -> None:
        if isinstance(action, Call):
            verb = self.verb(seat, "call")
            self.console.print(f"{self.names[seat]} {verb} [bold]{action}[/bold]")
            return
        self.show_challenge(state.results[-1])

    def show_challenge(self, result: RoundResult) -> None:
        c = self.console
        c.print(f"{self.names[result.challenger]} "
                f"[bold]{self.verb(result.challenger, 'challenge')}[/bold] "
                f"{self.possessive(result.caller)} [bold]{result.call}[/bold]!")
        shown = set(call_cards(result.call, [x for hand in result.hands for x in hand]))
        table = Table("seat", "hand", show_header=False)
        for s, hand in enumerate(result.hands):
            if hand:
                text = " ".join(f"[reverse]{x}[/reverse]" if x in shown else str(x) for x in hand)
                table.add_row(self.names[s], text)
        c.print(table)
        verdict = "[bold green]TRUE[/bold green]" if result.call_true else \
            "[bold red]FALSE[/bold red]"
        be, take = ("are", "take") if result.loser == self.seat else ("is", "takes")
        out = f" and {be} [bold]out of the game[/bold]" if result.eliminated else \
            f" and {take} a card"
        c.print(f"The call is {verdict}: {self.names[result.loser]} "
                f"{self.verb(result.loser, 'lose')} the round{out}.")

    def show_standings(self, state: BluffState) -> None:
        standings = state.standings or ()
        self.console.rule("Game over")
        for place, seats in enumerate(standings, 1):
            self.console.print(f"{place}. {', '.join(self.names[s] for s in seats)}")


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards)) or "-"
