"""The readable account that ``usotsuki replay FILE`` prints without ``--json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table


def print_account(file: Path, report: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console(highlight=False)
    game = {"bluff": "Bluff", "liar": "Liar Game"}.get(report.get("game") or "", "unknown game")
    console.print(f"[bold]{escape(str(file))}[/bold]: {game}")
    if report.get("game") == "bluff":
        _bluff_rounds(console, report["rounds"])
    elif report.get("game") == "liar":
        _liar_games(console, report["games"])
    error = report.get("error")
    if error:
        where = ", ".join(f"{k} {error[k]}" for k in ("round", "index") if error[k] is not None)
        action = f" ({escape(repr(error['action']))})" if error.get("action") is not None \
            else ""
        console.print(f"[bold red]error[/bold red]{' at ' + where if where else ''}{action}: "
                      f"{escape(error['message'])}")
    if report.get("finished"):
        places = ", ".join(
            f"{n}. seat {' & '.join(map(str, p))}" for n, p in enumerate(report["standings"], 1))
        console.print(f"[bold green]Finished.[/bold green] Standings: {places}")
    elif report.get("to_move") is not None:
        legal = report.get("legal")
        shown = len(legal) if isinstance(legal, list) else legal
        console.print(f"Unfinished: seat {report['to_move']} to move (legal: {shown}).")


def _bluff_rounds(console: Console, rounds: list[dict[str, Any]]) -> None:
    if not rounds:
        console.print("No round has been challenged yet.")
        return
    table = Table("round", "hands", "call", "caller", "challenger", "verdict", "loser")
    for i, r in enumerate(rounds):
        hands = "  ".join(f"{s}:{' '.join(h) or '-'}" for s, h in enumerate(r.get("hands", [])))
        verdict = "[green]true[/green]" if r["call_true"] else "[red]false[/red]"
        loser = f"{r['loser']}" + (" [bold](out)[/bold]" if r["eliminated"] else "")
        table.add_row(str(i), escape(hands), r["call"], str(r["caller"]), str(r["challenger"]),
                      verdict, loser)
    console.print(table)


def _liar_games(console: Console, games: list[dict[str, Any]]) -> None:
    for i, g in enumerate(games):
        console.print(f"[bold]Game {i}[/bold]: hand sizes {g['hand_sizes']}, stock "
                      f"{g['stock_size']}, field {g['field_size']}, order {g['order']}")
        for d in g["doubts"]:
            verdict = "truthful" if d["truthful"] else "a lie"
            console.print(f"  seat {d['doubter']} doubted seat {d['doubted']}: {verdict}; "
                          f"seat {d['drawer']} drew {d['drawn']}")
        if g.get("standings"):
            console.print(f"  standings: {g['standings']}")
