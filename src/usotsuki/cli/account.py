"""The readable account that ``usotsuki replay FILE`` prints without ``--json``.

It speaks as ``usotsuki play`` does: rounds and games counted from 1, players by the
names in the record (``seat N`` when it has none), what is legal in words. The error goes
to standard error; the rest to standard output. The ``--json`` object (RULES.md Part 5)
is not touched: its numbers stay the record's 0-based indices.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from usotsuki.core.json_guard import escape_lone_surrogates
from usotsuki.core.record import MAX_FILE_BYTES, RecordError, parse_record_bytes
from usotsuki.games import ENTRIES

ALL_BLUFF_CALLS = 326  # B6: every call there is; "any call" in words


def record_names(file: Path, report: dict[str, Any]) -> list[str] | None:
    """The players' names from the record, when it lists one per seat."""
    try:
        record = parse_record_bytes(file.read_bytes(), MAX_FILE_BYTES)
    except (OSError, RecordError):
        return None
    players = record.get("players") if isinstance(record, dict) else None
    if isinstance(players, list) and players and all(isinstance(p, str) for p in players):
        return [escape_lone_surrogates(p) for p in players]  # printable as UTF-8
    return None


class Seats:
    """Seat numbers as the record's names, else ``seat N``."""

    def __init__(self, names: Sequence[str] | None) -> None:
        self.names = list(names or ())

    def __getitem__(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return escape(self.names[seat])
        return f"seat {escape(str(seat))}"

    def group(self, seats: Sequence[int]) -> str:
        return " & ".join(self[s] for s in seats)


def print_account(file: Path, report: dict[str, Any], console: Console | None = None,
                  errors: Console | None = None) -> None:
    console = console or Console(highlight=False)
    errors = errors or Console(stderr=True, highlight=False)
    kind = report.get("game")
    seats = Seats(record_names(file, report))
    entry = ENTRIES.get(kind or "")
    console.print(f"[bold]{escape(str(file))}[/bold]: "
                  f"{'unknown game' if entry is None else entry.title}")
    if entry is not None:
        ACCOUNTS[entry.name](console, report[entry.record_key], seats)
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


def _unit(kind: str | None) -> str:
    entry = ENTRIES.get(kind or "")
    return "round" if entry is None else entry.deal_unit


_LOCATION = re.compile(r"^(?:round|game) (\d+)(?:: |, )")
_NUMBERED = re.compile(r"\b(round|game) (\d+)\b")
_SEAT = re.compile(r"\bseat (\d+)\b")
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
    text = _SEAT.sub(lambda m: seats[int(m.group(1))], text)
    text = _HAND.sub(lambda m: f"{seats[int(m.group(1))]}'s hand", text)
    at = f" at {', '.join(where)}" if where else ""
    return f"[bold red]error[/bold red]{at}{action}: {text}"


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


def _bluff_rounds(console: Console, rounds: list[dict[str, Any]], seats: Seats) -> None:
    if not rounds:
        console.print("No round has been challenged yet.")
        return
    table = Table("round", "hands", "call", "caller", "challenger", "verdict", "loser")
    for i, r in enumerate(rounds, 1):
        hands = "\n".join(f"{seats[s]}: {escape(' '.join(h) or '-')}"
                          for s, h in enumerate(r.get("hands", [])))
        verdict = "[green]true[/green]" if r["call_true"] else "[red]false[/red]"
        loser = seats[r["loser"]] + (" [bold](out)[/bold]" if r["eliminated"] else "")
        table.add_row(str(i), hands, escape(r["call"]), seats[r["caller"]],
                      seats[r["challenger"]], verdict, loser)
    console.print(table)


def _liar_games(console: Console, games: list[dict[str, Any]], seats: Seats) -> None:
    for i, g in enumerate(games, 1):
        sizes = ", ".join(f"{n} ({seats[s]})" for s, n in enumerate(g["hand_sizes"]))
        console.print(f"[bold]Game {i}[/bold]: cards in hand: {sizes}; stock "
                      f"{g['stock_size']}, field {g['field_size']}, order {g['order']}")
        for d in g["doubts"]:
            verdict = "truthful" if d["truthful"] else "a lie"
            console.print(f"  {seats[d['doubter']]} doubted {seats[d['doubted']]}: {verdict}; "
                          f"{seats[d['drawer']]} drew {d['drawn']}")
        if g.get("standings"):
            places = ", ".join(f"{n}. {seats.group(p)}" for n, p in
                               enumerate(g["standings"], 1))
            console.print(f"  standings: {places}")


# Each game's account of its deals (a record's ``rounds`` or ``games``), in words.
ACCOUNTS = {"bluff": _bluff_rounds, "liar": _liar_games}
