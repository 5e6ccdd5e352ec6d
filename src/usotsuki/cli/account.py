"""The readable account that ``usotsuki replay FILE`` prints without ``--json``.

It tells the whole game, compactly, in the terminal's width: every Bluff call and
challenge of each round with the hands it revealed, every Liar Game play (with the cards
truly played), pass, doubt and class exchange, one line per field from its lead to its
flush. It follows the record's replay through the rules core (every step checked, so a
faulty record is told up to its fault), and speaks as ``usotsuki play`` does: rounds and
games counted from 1, players by the names in the record (``seat N`` when it has none),
what is legal in words. The error goes to standard error; the rest to standard output.
The ``--json`` object (RULES.md Part 5) is not touched: its numbers stay the record's
0-based indices.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from usotsuki.bluff.state import call_cards
from usotsuki.cards import Card
from usotsuki.cli.liar_render import cards_text
from usotsuki.cli.rule_refs import see_rules
from usotsuki.cli.stderr import print_error
from usotsuki.cli.text import fit
from usotsuki.cli.you import as_read_by, you_seat
from usotsuki.core.json_guard import escape_lone_surrogates
from usotsuki.core.record import MAX_FILE_BYTES, RecordError, ReplayStep, parse_record_bytes
from usotsuki.games import ENTRIES
from usotsuki.liar import events as lev
from usotsuki.liar.actions import CARD_RATE, RATE_NAMES
from usotsuki.liar.legal import eight_cut

ALL_BLUFF_CALLS = 326  # B6: every call there is; "any call" in words


def read_record(file: Path) -> Any:
    """The parsed record, or None when it cannot be read (the report says why)."""
    try:
        return parse_record_bytes(file.read_bytes(), MAX_FILE_BYTES)
    except (OSError, RecordError):
        return None


def record_names(record: Any) -> list[str] | None:
    """The players' names from the record, when it lists one per seat."""
    players = record.get("players") if isinstance(record, dict) else None
    if isinstance(players, list) and players and all(isinstance(p, str) for p in players):
        return [escape_lone_surrogates(p) for p in players]  # printable as UTF-8
    return None


class Seats:
    """Seat numbers as the record's names, else ``seat N``; the viewer's seat (``--as``,
    else the person of a ``usotsuki play`` record) is "You", spoken to as such: "You
    take", "your hand"."""

    def __init__(self, names: Sequence[str] | None, you: int | None = None) -> None:
        self.names = as_read_by(names or (), you)
        self.you = you

    def __getitem__(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return escape(self.names[seat])
        return f"seat {escape(str(seat))}"

    def is_you(self, seat: int) -> bool:
        return seat == self.you

    def object(self, seat: int) -> str:
        """The seat as a sentence's object: "gives you"."""
        return "you" if self.is_you(seat) else self[seat]

    def verb(self, seat: int, verb: str) -> str:
        """``name verb``, agreeing: "You take", "normal 1 takes"."""
        if self.is_you(seat):
            return f"You {verb}"
        ending = "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
        return f"{self[seat]} {verb}{ending}"

    def possessive(self, seat: int) -> str:
        return "your" if self.is_you(seat) else f"{self[seat]}'s"

    def group(self, seats: Sequence[int]) -> str:
        return " & ".join(self[s] for s in seats)


def print_account(file: Path, report: dict[str, Any], console: Console | None = None,
                  errors: Console | None = None, as_seat: str | None = None) -> bool:
    """Print the account; False (and nothing printed but the error) when ``as_seat``
    (``--as``: a seat number or a name) names no single seat of the record."""
    console = console or Console(highlight=False)
    errors = errors or Console(stderr=True, highlight=False)
    kind = report.get("game")
    record = read_record(file)
    names = record_names(record)
    try:
        you = you_seat(names or [], as_seat)
    except ValueError as exc:
        print_error(errors, escape_lone_surrogates(str(exc)))
        return False
    seats = Seats(names, you)
    entry = ENTRIES.get(kind or "")
    console.print(f"[bold]{escape(str(file))}[/bold]: "
                  f"{'unknown game' if entry is None else entry.title}", soft_wrap=True)
    if entry is not None and record is not None:
        steps: list[ReplayStep[Any]] = []
        entry.replay(record, on_step=steps.append)
        for line in STORIES[entry.name](steps, seats, console.width):
            console.print(line)
    error = report.get("error")
    if error:
        errors.print(error_line(error, kind, seats))
        if error.get("index") is not None and report.get("to_move") is not None:
            # at an illegal action the other keys describe the game just before it
            console.print(f"Legal there for {seats[report['to_move']]}: "
                          f"{legal_text(kind, report.get('legal'))}.")
    elif report.get("finished"):
        places = ", ".join(f"{n}. {seats.group(p)}" for n, p in
                           enumerate(report["standings"], 1))
        console.print(f"[bold green]Finished.[/bold green] Standings: {places}")
    elif report.get("to_move") is not None:
        console.print(f"Unfinished: {seats[report['to_move']]} to move; legal: "
                      f"{legal_text(kind, report.get('legal'))}.")
    return True


def _unit(kind: str | None) -> str:
    entry = ENTRIES.get(kind or "")
    return "round" if entry is None else entry.deal_unit


_LOCATION = re.compile(r"^(?:round|game) (\d+)(?:: |, )")
_NUMBERED = re.compile(r"\b(round|game) (\d+)\b")
_SEAT = re.compile(r"\bseat (\d+)\b('s)?")
_HAND = re.compile(r"\bhand (\d+)\b")


def error_line(error: dict[str, Any], kind: str | None, seats: Seats) -> str:
    """"error at round 4, action 2 (pair 7): ..." with 1-based numbers, names for seats,
    and the location said once (the core's message starts with it too)."""
    where = []
    if error.get("round") is not None:
        where.append(f"{_unit(kind)} {error['round'] + 1}")
    if error.get("index") is not None:
        where.append(f"action {error['index'] + 1}")
    action = f" ({escape(json.dumps(error['action'], ensure_ascii=False))})" \
        if error.get("action") is not None else ""
    message = str(error.get("message", ""))
    located = _LOCATION.match(message)
    if located and error.get("round") is not None and int(located.group(1)) == error["round"]:
        message = message[located.end():]
    text = _NUMBERED.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + 1}", escape(message))
    text = _SEAT.sub(lambda m: seats.possessive(int(m.group(1))) if m.group(2)
                     else seats[int(m.group(1))], text)
    text = _HAND.sub(lambda m: f"{seats.possessive(int(m.group(1)))} hand", text)
    at = f" at {', '.join(where)}" if where else ""
    return f"[bold red]error[/bold red]{at}{action}: {text}{see_rules(message)}"


def legal_text(kind: str | None, legal: Any) -> str:
    """RULES.md Part 5's ``legal`` in words."""
    if kind == "bluff" and isinstance(legal, list):
        calls = [a for a in legal if a != "challenge"]
        if len(calls) == ALL_BLUFF_CALLS:
            return "any call (a new round)"
        if not calls:
            return "only challenge"
        return (f"challenge, or one of {len(calls)} stronger calls from {calls[0]}"
                if "challenge" in legal else f"{len(calls)} calls from {calls[0]}")
    if kind == "liar" and isinstance(legal, dict):
        options = []
        play = legal.get("play")
        if legal.get("give"):
            options.append("give cards back (O7)")
        if isinstance(play, dict):
            counts, rates = play.get("counts") or [], play.get("rates") or []
            count = (f"{counts[0]} card{'s' if counts[0] != 1 else ''}"
                     if len(counts) == 1 else f"{counts[0]} to {counts[-1]} cards")
            rate = "any rate" if len(rates) == 13 else ", ".join(map(str, rates))
            options.append(f"play {count} as {rate}")
        options += [word for word in ("pass", "doubt", "accept") if legal.get(word)]
        return ", ".join(options) or "nothing"
    return escape(json.dumps(legal))


def _bluff_story(steps: Sequence[ReplayStep[Any]], seats: Seats, width: int) -> list[str]:
    """Each round: its dealer and every call, then the challenge and what it cost, then
    the hands of the players still in, the cards the call names marked ``*`` (B8)."""
    lines: list[str] = []
    items: list[str] = []
    hands: Sequence[Sequence[Card]] = ()

    def close_round(named: frozenset[Card]) -> None:
        lines.extend(fit(items, width, sep=" · "))
        shown = [f"{seats[s]} " + " ".join(f"{c}*" if c in named else str(c) for c in hand)
                 for s, hand in enumerate(hands) if hand]
        if shown:
            lines.extend(fit([f"  [dim]hands:[/dim] {shown[0]}", *shown[1:]], width,
                             sep=" · ", indent="    "))

    for step in steps:
        state = step.state
        if step.actor is None:
            hands = state.hands or ()
            items = [f"[bold]Round {step.number + 1}[/bold] (dealer {seats[state.dealer]}):"]
        elif state.results and state.hands is None:  # the challenge that ended the round
            r = state.results[-1]
            verdict = "[green]true[/green]" if r.call_true else "[red]false[/red]"
            you = seats.is_you(r.loser)
            cost = (f"{'You are' if you else seats[r.loser] + ' is'} [bold]out[/bold]"
                    if r.eliminated else f"{seats.verb(r.loser, 'take')} a card")
            items.append(f"{seats.verb(step.actor, 'challenge')}: {verdict}, {cost}")
            close_round(frozenset(call_cards(r.call, [c for h in r.hands for c in h])))
            items = []
        else:
            call = f"{seats[step.actor]} [bold]{escape(str(step.action))}[/bold]"
            if items[-1].endswith(":"):  # the round's first call follows its heading
                items[-1] = f"{items[-1]} {call}"
            else:
                items.append(call)
    if items:  # the round in play when the record ends
        items.append("[dim](in play)[/dim]")
        close_round(frozenset())
    return ["[dim]Each round: its calls, the challenge, the hands (* what the call "
            "names, B8).[/dim]", *lines] if steps else lines


def _liar_story(steps: Sequence[ReplayStep[Any]], seats: Seats, width: int) -> list[str]:
    """Each game: its deal and class exchanges, then one line per field, from its lead to
    its flush: every play with the cards truly played (``*``: not of the declared rate),
    every pass and doubt, the order's changes; then the places."""
    lines: list[str] = []
    items: list[str] = []

    def flush() -> None:
        lines.extend(fit(items, width, sep=" · "))
        items.clear()

    for step in steps:
        if step.actor is None:
            flush()
            state = step.state
            sizes = " · ".join(f"{seats[s]}: {len(h)}" for s, h in enumerate(state.hands))
            lines.append(f"[bold]Game {step.number + 1}[/bold]: cards dealt: {sizes}")
        for event in step.events:
            item = _liar_item(event, step.events, seats)
            if item:
                items.append(item)
            if isinstance(event, lev.PlayedCards) and eight_cut(step.state):
                items.append("[bold yellow]8-cut[/bold yellow]")
            if isinstance(event, lev.Flushed | lev.GameOver) or \
                    isinstance(event, lev.GaveCards) and not step.state.owed:
                flush()
            if isinstance(event, lev.GameOver):
                places = [f"{n}. {seats.group(p)}" for n, p in enumerate(event.standings, 1)]
                lines.extend(fit([f"  places: {places[0]}", *places[1:]], width, sep=" · "))
    flush()
    return ["[dim]One line per field, from its lead to its flush; * not of the rate "
            "declared.[/dim]", *lines] if steps else lines


ORDER_CHANGES = {"revolution": "[bold magenta]revolution![/bold magenta]",
                 "jack back": "[bold magenta]J-back![/bold magenta]",
                 "six up": "[bold]6 up[/bold]: the J-back ends", "flush": ""}


def _liar_item(e: Any, events: Sequence[Any], seats: Seats) -> str:
    if isinstance(e, lev.PlayedCards):
        played = next(p for p in events if isinstance(p, lev.Played))
        cards = " ".join(str(c) if CARD_RATE[c] == played.rate else f"[red]{c}*[/red]"
                         for c in e.cards)
        return f"{seats[e.seat]} {cards} as [bold]{RATE_NAMES[played.rate]}[/bold]"
    if isinstance(e, lev.Passed):
        return seats.verb(e.seat, "pass")
    if isinstance(e, lev.Doubted):
        drew = next((d for d in events if isinstance(d, lev.Drew)), None)
        verdict = "truthful" if e.truthful else "[red]a lie[/red]"
        draws = f", {seats.verb(drew.seat, 'draw')} {drew.count}" if drew else ""
        return f"{seats.verb(e.doubter, 'doubt')}: {verdict}{draws}"
    if isinstance(e, lev.Accepted):
        return seats.verb(e.seat, "accept")
    if isinstance(e, lev.OrderChanged):
        return ORDER_CHANGES.get(e.cause, e.cause)
    if isinstance(e, lev.Bound):
        return "[bold yellow]bound[/bold yellow] (one rate at a time)"
    if isinstance(e, lev.GaveCards):
        return f"{seats.verb(e.giver, 'give')} {seats.object(e.receiver)} {cards_text(e.cards)}"
    if isinstance(e, lev.GameOver):
        return ("[bold]turn limit: no winner[/bold]" if e.winner is None else
                f"[bold green]{seats.verb(e.winner, 'win')}[/bold green]")
    return ""


# Each game's story of its record, line by line, as Rich markup.
STORIES = {"bluff": _bluff_story, "liar": _liar_story}
