"""``usotsuki analyse``: the game review of a record in the terminal.

A shell over :mod:`usotsuki.analysis`: it reads the record, shows a Rich progress bar while
each decision is judged, prints each player's summary and the marked moves, and writes
the JSON (``docs/analysis.md``) and the win-chance chart when asked. Output paths are
checked before the work starts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from usotsuki.analysis import NotAnalysable, analyse
from usotsuki.cli.account import Seats, error_line, record_names
from usotsuki.cli.records import PathError, check_writable, write_text_atomic
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.cli.tournament import check_plot_path
from usotsuki.cli.you import as_read_by, you_seat
from usotsuki.core.errors import must_be
from usotsuki.core.json_guard import escape_lone_surrogates, printable
from usotsuki.core.record import MAX_FILE_BYTES, RecordError, parse_record_bytes
from usotsuki.games import game as game_entry

MARK_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
SYMBOL = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def run_analyse(*, file: Path, json_path: Path | None, plot_path: Path | None,
                depth: int | None, seed: str, as_seat: str | None = None,
                mine: bool = False, console: Console | None = None,
                errors: Console | None = None) -> int:
    """Review one record; return the exit status (0 done, 1 a bad file or option).
    ``as_seat`` (``--as``: a seat number or a name) is "You" in what is printed and
    drawn; without it, the person of a ``usotsuki play`` record. The JSON keeps the
    record's names. ``mine`` (``--mine``): only that player's marked moves are listed."""
    console = console or Console(highlight=False)
    errors = errors or error_console()
    try:
        if depth is not None and depth < 1:
            raise ValueError(must_be("--depth", "at least 1 (playouts per move)", depth))
        if json_path is not None:
            check_writable(json_path, "--json", "review.json")
        if plot_path is not None:
            check_plot_path(plot_path)
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise ValueError(f"cannot read {file}: {exc.strerror or exc}") from None
        record = parse_record_bytes(data, MAX_FILE_BYTES)
        players = record.get("players") if isinstance(record, dict) else None
        # (a record may give only the number of players: the review names them #0, #1 ...)
        names = record_names(record) or [f"#{s}" for s in range(
            players if isinstance(players, int) and players < 100 else 0)]
        you = you_seat(names, as_seat)
        if mine and you is None:
            raise ValueError("--mine needs to know who you are: name yourself with --as "
                             "NAME|SEAT")
    except (PathError, RecordError, ValueError) as exc:
        print_error(errors, escape_lone_surrogates(str(exc)))
        return 1
    seed_value: int | str = int(seed) if seed.lstrip("-").isdigit() else seed
    try:
        with Progress(TextColumn("[bold]reviewing"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=console, transient=True) as progress:
            task = progress.add_task("decisions", total=None)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            # printable: a name or action with a lone surrogate is shown as its escape
            result = printable(analyse(record, seed=seed_value, depth=depth,
                                       progress=advance))
    except NotAnalysable as exc:
        if exc.fault is None:
            print_error(errors, f"{file}: not reviewable: {escape_lone_surrogates(str(exc))}")
        else:  # located as ``usotsuki replay`` locates it
            kind = record.get("game") if isinstance(record, dict) else None
            errors.print(escape_lone_surrogates(error_line(
                exc.fault.to_json(), kind if isinstance(kind, str) else None,
                Seats(names, you))))
            errors.print(f"{escape(str(file))}: not reviewable (it does not replay)")
        return 1
    except KeyboardInterrupt:
        errors.print("[yellow]Interrupted; no review.[/yellow]")
        return 130
    shown = {**result, "names": as_read_by(result["names"], you)}
    print_review(console, shown, only=you if mine else None)
    status = 0
    for path, write, what, of in ((json_path, _write_json, "JSON", result),
                                  (plot_path, plot, "chart", shown)):
        if path is None:
            continue
        try:
            write(of, path)
            console.print(f"wrote the {what} to {escape(str(path))}")
        except OSError as exc:
            print_error(errors, f"could not write {path}: {exc.strerror or exc}")
            status = 1
    return status


def _write_json(result: dict[str, Any], path: Path) -> None:
    write_text_atomic(path, json.dumps(result, ensure_ascii=False, indent=1) + "\n")


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


def _points(x: float) -> str:
    """A chance to win in percentage points, as a whole number ("<1" for a sliver)."""
    return "<1" if 0 < x < 0.005 else f"{x * 100:.0f}"


def print_review(console: Console, a: dict[str, Any], only: int | None = None) -> None:
    """The players' summaries, then every marked (or lucky/unlucky) move (``only``: of
    that seat alone); both fit 80 columns: no column dropped, long names and moves
    wrapped rather than cut."""
    game = a["game"]
    names = a["names"]
    state = "finished" if a["finished"] else "unfinished"
    title = (f"{game_entry(game).title} review, {a['players']} players, "
             f"{state}; depth {a['depth']}, seed {a['seed']}")
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    claims, tests = ("calls", "chall.") if game == "bluff" else ("plays", "doubts")
    table.add_column("player", overflow="fold", max_width=16)
    for column in ("moves", "acc.", "?!", "?", "??", f"bluffs/{claims}", f"{tests} won",
                   "luck"):
        table.add_column(column, justify="right", no_wrap=True)
    for s in a["summary"]:
        m = s["marks"]
        accuracy = "-" if s["accuracy"] is None else f"{s['accuracy']:.0f}%"
        table.add_row(escape(names[s["seat"]]), str(s["judged"]), accuracy,
                      str(m["inaccuracy"]), str(m["mistake"]), str(m["blunder"]),
                      f"{s['bluffs']}/{s['claims']}", f"{s['tests_won']}/{s['tests']}",
                      f"{s['luck']:+.1f}")
    console.print(table)
    console.print("acc.: accuracy, 100% for moves as good as the expert's best (higher is "
                  "better; docs/analysis.md); ?! inaccuracy, ? mistake, ?? blunder; luck: "
                  "challenges/doubts won minus their odds.")
    marked = [d for d in a["decisions"] if (d["mark"] in MARK_STYLE or d["luck"])
              and (only is None or d["seat"] == only)]
    if not marked:
        return
    moves = Table(title="Marked moves" if only is None else "Your marked moves",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    word = game_entry(game).deal_unit[0]  # r(ound), g(ame)
    for column in ("step", word, "player", "move", "odds", "win", "best", "lost", "mark"):
        numeric = column in ("step", word, "odds", "win", "lost")
        moves.add_column(column, justify="right" if numeric else "left",
                         no_wrap=numeric, overflow="fold",
                         max_width=12 if column == "player" else None)
    for d in marked:
        odds = d["p_action"] if d["p_action"] is not None else d["p_current"]
        label = SYMBOL.get(d["mark"] or "", "")
        if d["luck"]:
            label = f"{label} {d['luck']}".strip()
        style = MARK_STYLE.get(d["mark"] or "", "cyan")
        value = "-" if d["value"] is None else \
            f"{d['value'] * 100:.0f}±{_points(d['error'])}"
        moves.add_row(str(d["frame"]), str(d["round"] + 1), escape(names[d["seat"]]),
                      escape(d["action"]), _pct(odds), value, escape(d["best"] or "-"),
                      "-" if d["lost"] is None else _points(d["lost"]),
                      f"[{style}]{label}[/{style}]")
    console.print(moves)
    console.print("odds: exact probability, from the player's view, that the call made (or "
                  "the claim judged) is true; win: the player's chance to win the game after "
                  "the move, in percent, ± its error bar (two standard errors); lost: "
                  "percentage points of it lost against the best move.")


def move_axis(a: dict[str, Any]) -> tuple[list[int], list[tuple[int, int]]]:
    """The chart's x for each frame, counted in moves (a deal adds none, so a new round
    or game starts where the last move ended), and where each deal after the first falls:
    ``(x, round or game index)``."""
    action_round = {d["frame"]: d["round"] for d in a["decisions"]}
    xs, starts, moves, last_round = [], [], 0, 0
    for frame in range(len(a["win"])):
        if frame in action_round:
            moves += 1
            last_round = action_round[frame]
        elif frame:
            starts.append((moves, last_round + 1))
            last_round += 1
        xs.append(moves)
    return xs, starts


def plot(a: dict[str, Any], path: Path) -> None:
    """Each player's chance to win, move by move, with each new round (Bluff) or game
    (Liar Game) marked where it starts (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = a["win"]
    xs, starts = move_axis(a)
    fig, ax = plt.subplots(figsize=(8, 3.8))
    unit = game_entry(a["game"]).deal_unit
    for x, number in starts:
        ax.axvline(x, color="grey", linewidth=0.8, linestyle="--" if unit == "game" else ":")
        if unit == "game":  # a match has few games: each is named
            ax.text(x, 0.98, f" game {number + 1}", fontsize=8, va="top", color="dimgrey")
    for seat, name in enumerate(a["names"]):
        ax.plot(xs, [w[seat] for w in series], label=name, linewidth=1.4)
    for d in a["decisions"]:
        if d["mark"] in ("mistake", "blunder"):
            ax.plot(xs[d["frame"]], series[d["frame"]][d["seat"]],
                    "x" if d["mark"] == "blunder" else ".", color="black", markersize=6)
    moves = ("calls and challenges; dotted lines: new rounds" if unit == "round" else
             "plays, passes, doubts and gives; dashed lines: new games")
    ax.set_xlabel(f"move ({moves})")
    ax.set_ylabel("chance to win")
    ax.set_ylim(0, 1)
    ax.set_xlim(0, max(1, xs[-1] if xs else 1))
    kind = ("lives left, round loser from the caller's search" if a["game"] == "bluff"
            else "the expert's guess from hand sizes")
    ax.set_title(f"{game_entry(a['game']).title}: chance to win ({kind});"
                 " x = blunder, . = mistake", fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
