"""``usotsuki rules [CODE ...]``: the rule book in the terminal.

Alone, an index: every numbered rule with one line that explains it. With codes, each
rule's own text (RULES.md, as shipped) and its worked example: the hands drawn as cards,
then the example's record told as ``usotsuki replay`` tells a game (the rules cores
played it), the move the rules refuse with the cores' own message, and what is legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from usotsuki.cli.account import STORIES, Seats, legal_text
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.cli.text import fit
from usotsuki.rulebook import entry, rules, texts
from usotsuki.rulebook.examples import replay_steps

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
GROUPS = (("B", "Bluff (RULES.md Part 1)"), ("L", "The Liar Game (RULES.md Part 2)"),
          ("O", "The Liar Game's house rules, each an option, all off by default"))


def card_markup(card: str) -> str:
    """A card drawn as on the table: rank and suit symbol, hearts and diamonds red."""
    rank, suit = card[:-1], card[-1]
    face = f"{rank}{SUITS[suit]}"
    ink = "red" if suit in "HD" else "black"
    return f"[bold {ink} on white] {face} [/]"


def print_index(console: Console) -> None:
    """Every rule code, its title and a line that explains it, game by game."""
    words = texts()
    for letter, heading in GROUPS:
        console.print(f"[bold]{heading}[/bold]")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column(no_wrap=True)
        grid.add_column()  # the explanation wraps in its own column
        for code in rules():
            if code.startswith(letter):
                grid.add_row(code, escape(words[code]["title"]["en"]),
                             escape(words[code]["line"]["en"]))
        console.print(grid)
        console.print()
    console.print("[dim]'usotsuki rules CODE' shows a rule's full text with a worked example "
                  "(several codes: 'usotsuki rules B5 B7').[/dim]")


def print_rule(console: Console, code: str) -> None:
    """One rule: its text, then its worked example."""
    shown = entry(code)
    console.rule(f"[bold]{shown['code']}[/bold] {escape(shown['title']['en'])}")
    console.print(Markdown(shown["text"]["en"]))
    console.print()
    console.print(f"[bold]Example.[/bold] {escape(shown['caption']['en'])}")
    for line in example_lines(shown["code"], shown["example"], console.width):
        console.print(line)
    console.print()


def example_lines(code: str, example: dict[str, Any], width: int) -> list[str]:
    """The example as markup lines: each deal's hands drawn as cards, the story of its
    record, the refused move and what is legal."""
    seats = Seats(None)
    game = example["game"]
    unit = "Round" if game == "bluff" else "Game"
    lines: list[str] = []
    options = ", ".join(k if v is True else f"{k} off" if v is False else f"{k} {v}"
                        for k, v in example["rules"].items())
    if options:
        lines.append(f"  [dim]options: {escape(options)}[/dim]")
    for number, deal in enumerate(example["deals"], 1):
        hands = [f"{seats[s]} " + (" ".join(card_markup(c) for c in hand) or "[dim]out[/dim]")
                 for s, hand in enumerate(deal["hands"])]
        if deal.get("stock") is not None:
            hands.append(f"stock: {deal['stock']} cards")
        lines.extend(fit([f"  {unit} {number} dealt: {hands[0]}", *hands[1:]], width,
                         sep=" · ", indent="    "))
    lines.extend(f"  {line}" for line in STORIES[game](replay_steps(code), seats, width - 2))
    refused = example["refused"]
    if refused is not None:
        who = seats[refused["seat"]] if refused["seat"] is not None else "The rules"
        tried = f" tries [bold]{escape(refused['action'])}[/bold]" if refused["action"] else ""
        lines.append(f"  {who}{tried}: [red]refused[/red]: {escape(refused['message'])}")
    if example["standings"]:
        places = ", ".join(f"{n}. {seats.group(p)}" for n, p in enumerate(example["standings"], 1))
        lines.append(f"  [bold green]Finished.[/bold green] Standings: {places}")
    if example["legal"] is not None and example["to_move"] is not None:
        lines.append(f"  Legal now for {seats[example['to_move']]}: "
                     f"{legal_text(game, example['legal'])}.")
    return lines


def code_ranges() -> str:
    """The codes there are, as ranges: ``B1-B13, L1-L11, O1-O7``."""
    known = list(rules())
    return ", ".join(f"{group[0]}-{group[-1]}" for letter, _ in GROUPS
                     if (group := [c for c in known if c.startswith(letter)]))


def run_rules(codes: Sequence[str], console: Console | None = None,
              errors: Console | None = None) -> int:
    """Print the index, or each rule of ``codes``; 1 (and nothing printed) when one of
    them is no rule code."""
    console = console or Console(highlight=False)
    wrong = [c for c in codes if c.upper() not in rules()]
    if wrong:
        print_error(errors or error_console(),
                    f"no rule {', '.join(wrong)} in the rule book: the codes are "
                    f"{code_ranges()} ('usotsuki rules' lists them)")
        return 1
    if not codes:
        print_index(console)
    for code in codes:
        print_rule(console, code)
    return 0
