"""``usotsuki tournament``: pit bots against each other and show who is stronger.

A shell over :mod:`usotsuki.tournament`: it checks the options, shows a Rich progress
bar while the games run in parallel processes, prints the table, and writes the JSON and
the plot when asked.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from usotsuki.cli.records import PathError, check_writable, write_text_atomic
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.cli.text import plural
from usotsuki.core.errors import UsotsukiError, must_be
from usotsuki.tournament import BotFault, Spec, check_spec, plot, run, summarize


def run_tournament(*, game: str, players: int, bots: str, games: int, seed: int,
                   jobs: int | None, rules: str, plot_path: Path | None,
                   json_path: Path | None, console: Console | None = None,
                   errors: Console | None = None) -> int:
    """Run one tournament; return the exit status (0 done, 1 bad options)."""
    console = console or Console(highlight=False)
    errors = errors or error_console()
    names = tuple(name.strip() for name in bots.split(",") if name.strip())
    spec = Spec(game=game, players=players, bots=names, games=games, seed=seed, rules=rules)
    try:
        if jobs is not None and jobs < 1:
            raise ValueError(must_be("--jobs", "at least 1", jobs))
        check_spec(spec)
        # the files are checked before minutes of games, not after them
        if json_path is not None:
            check_writable(json_path, "--json", "results.json")
        if plot_path is not None:
            check_plot_path(plot_path)
    except (UsotsukiError, ValueError) as exc:
        print_error(errors, str(exc))
        return 1
    workers = jobs if jobs is not None else max(1, os.cpu_count() or 1)
    try:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                      SteadyTimeRemaining(), console=console) as progress:
            task = progress.add_task(f"{game} games", total=games)
            results = run(spec, jobs=workers, progress=lambda n: progress.advance(task, n))
    except BotFault as exc:
        print_error(errors, str(exc))
        return 1
    except KeyboardInterrupt:
        errors.print("[yellow]Interrupted; no results.[/yellow]")
        return 130
    summary = summarize(spec, results)
    print_table(console, summary)
    status = 0
    if json_path is not None:
        try:
            write_text_atomic(json_path, json.dumps(summary, indent=2) + "\n")
            console.print(f"wrote {escape(str(json_path))}")
        except OSError as exc:  # checked before, but the disk may have filled since
            print_error(errors, f"could not write {json_path}: {exc.strerror or exc}")
            status = 1
    if plot_path is not None:
        try:
            plot(summary, plot_path)
            console.print(f"wrote {escape(str(plot_path))}")
        except OSError as exc:
            print_error(errors, f"could not write {plot_path}: {exc.strerror or exc}")
            status = 1
    return status


def check_plot_path(path: Path) -> None:
    """``--plot``: a writable file of an image format matplotlib writes (PNG without a
    suffix).

    :raises PathError: naming what is wrong.
    """
    check_writable(path, "--plot", "chart.png")
    suffix = path.suffix.lower().lstrip(".")
    if suffix:
        from matplotlib.backend_bases import FigureCanvasBase

        formats = FigureCanvasBase.get_supported_filetypes()
        if suffix not in formats:
            raise PathError(f"--plot: matplotlib cannot write .{suffix} files (it writes "
                            f"{', '.join('.' + f for f in sorted(formats))})")


def rating_text(mu: float, sigma: float) -> str:
    """``mu±sigma`` to one decimal; a mean that rounds to zero is 0.0, never -0.0."""
    shown = round(mu, 1) + 0.0  # adding 0.0 turns -0.0 into 0.0
    return f"{shown:.1f}±{sigma:.1f}"


class SteadyTimeRemaining(ProgressColumn):
    """The time left from the mean pace since the start (games done per second of the
    whole run), shown once a few games are done: parallel games finish in bursts, and a
    pace taken from the first burst foretells far too little."""

    def __init__(self, min_done: int = 5) -> None:
        super().__init__()
        self.min_done = min_done

    def render(self, task: Task) -> Text:
        elapsed, done, total = task.elapsed, task.completed, task.total
        wanted = min(self.min_done, max(1, int(total or 1) // 10))
        if not elapsed or total is None or done < wanted:
            return Text("-:--:--", style="progress.remaining")
        left = (total - done) * elapsed / done
        return Text(str(timedelta(seconds=round(left))), style="progress.remaining")


def print_table(console: Console, summary: dict[str, object]) -> None:
    bots = summary["bots"]
    assert isinstance(bots, dict)
    title = (f"{summary['game']}, {summary['players']} players, {summary['games']} games"
             f" (fair win share {1 / int(str(summary['players'])):.1%} per seat)")
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for column in ("bot", "seats", "games", "wins", "win share", "95% CI", "place", "rating"):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    ranked = sorted(bots.items(), key=lambda kv: -kv[1]["win_share"])
    for name, b in ranked:
        low, high = b["ci95"]
        table.add_row(name, str(b["seats"]), str(b["games"]), str(b["wins"]),
                      f"{b['win_share']:.1%}", f"{low:.1%}-{high:.1%}",
                      f"{b['mean_place']:.2f}", rating_text(b["rating"], b["rating_sigma"]))
    console.print(table)
    console.print("seats: copies per table (pooled); games: seats played; place: mean place; "
                  "rating: openskill Plackett-Luce mu±sigma.")
    if summary.get("games_without_winner"):
        console.print(f"{plural(int(str(summary['games_without_winner'])), 'game')} ended "
                      "without a winner (turn limit, L11).")
