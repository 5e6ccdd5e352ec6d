"""``usotsuki puzzle``: the shipped puzzles in the terminal, rated (Glicko-2) or as a streak.

Each puzzle is shown as the acting seat sees it (the same screens as ``usotsuki play``):
its hand, the table, the calls or the field; then the question and the moves the expert
weighed. The answer may be any legal move in the notation. Ratings (yours per game, and
each puzzle's as you met it) and your best streaks are kept in
``$XDG_DATA_HOME/usotsuki/puzzles.json``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from usotsuki.analysis import puzzle_book
from usotsuki.analysis.glicko2 import Rating, attempt
from usotsuki.cli.bluff_play import BluffScreen
from usotsuki.cli.liar_render import Names, hand_text, table_lines
from usotsuki.cli.resume import rebuild
from usotsuki.liar import LiarView

QUESTIONS = {
    "raise_or_challenge": "Raise or challenge?", "which_call": "Which call?",
    "doubt_or_not": "Doubt or not?", "pass_or_play": "Pass or play?",
    "which_rate": "Which rate?", "which_cards": "Which cards?",
}
THEMES = {
    "catch_the_bluff": "catch the bluff", "the_safe_raise": "the safe raise",
    "the_bold_raise": "the bold raise", "the_last_card": "the last card",
    "heads_up": "heads-up", "the_safe_play": "the safe play", "the_bold_lie": "the bold lie",
    "the_revolution": "the revolution", "the_eight_cut": "the 8-cut",
    "the_patient_pass": "the patient pass",
}


def progress_path() -> Path:
    """``$XDG_DATA_HOME/usotsuki/puzzles.json`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "usotsuki" / "puzzles.json"


def load_progress(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    for key in ("ratings", "puzzles", "seen", "best_streak"):
        if not isinstance(data.get(key), dict):
            data[key] = {}
    return data


def save_progress(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    tmp.replace(path)


def _rating(data: dict[str, Any], key: str, fallback: Rating) -> Rating:
    try:
        return Rating.from_json(data.get(key, fallback.to_json()))
    except ValueError:
        return fallback


def show_position(console: Console, puzzle: dict[str, Any]) -> None:
    """The acting seat's view of the puzzle, as ``usotsuki play`` shows a turn."""
    record = puzzle["record"]
    key = "rounds" if puzzle["game"] == "bluff" else "games"
    last = record[key][-1]
    before = {**record, key: [*record[key][:-1], {**last, "actions": last["actions"][:-1]}]}
    seat = puzzle["seat"]
    players = len(record["players"]) if isinstance(record["players"], list) \
        else int(record["players"])
    names = tuple("You" if s == seat else f"Seat {s}" for s in range(players))
    session = rebuild(puzzle["game"], before, names, None)
    if puzzle["game"] == "bluff":
        BluffScreen(console, names, seat).show_table(session)
        return
    view = session.view(seat)
    assert isinstance(view, LiarView)
    for line in table_lines(view, Names(names, seat), console.width):
        console.print(line)
    console.print(f"Your hand: [bold]{hand_text(view.hand or ())}[/bold]")


def run_puzzles(game: str, *, streak: bool = False, puzzle_id: str | None = None,
                count: int | None = None, console: Console | None = None,
                ask: Callable[[str], str] | None = None, path: Path | None = None,
                rng: random.Random | None = None) -> int:
    """Puzzles one after another until ``quit`` (or end of input, or ``count`` puzzles, or
    a streak's first miss). Returns the exit status."""
    console = console or Console(highlight=False)
    ask = ask or console.input
    path = path or progress_path()
    rng = rng or random.Random()
    data = load_progress(path)
    seen: list[str] = data["seen"].setdefault(game, [])
    solved_in_streak = 0
    done = 0
    while count is None or done < count:
        player = _rating(data["ratings"], game, Rating())
        if puzzle_id is not None:
            puzzle = puzzle_book.find(puzzle_id)
            if puzzle is None:
                console.print(f"No puzzle {escape(puzzle_id)}.")
                return 2
            puzzle_id = None
            count = 1
        else:
            target = puzzle_book.streak_target(solved_in_streak) if streak else player.rating
            ratings = {k: v["rating"] for k, v in data["puzzles"].items()
                       if isinstance(v, dict) and "rating" in v}
            puzzle = puzzle_book.choose(game, target, seen[-200:], rng, ratings)
        shown_rating = _rating(data["puzzles"], puzzle["id"],
                               Rating(puzzle["rating"], puzzle["rd"]))
        themes = ", ".join(THEMES.get(t, t) for t in puzzle["themes"])
        console.rule(f"Puzzle {puzzle['id']} · rating {shown_rating.rating:.0f}"
                     + (f" · streak {solved_in_streak}" if streak else ""))
        show_position(console, puzzle)
        console.print(f"[bold]{QUESTIONS[puzzle['question']]}[/bold]")
        choices = sorted(o["action"] for o in puzzle["options"])
        console.print("The expert weighed: " + ", ".join(f"[bold]{c}[/bold]" for c in choices))
        verdict = None
        while verdict is None:
            try:
                answer = ask("Your move ('skip', 'quit'): ").strip()
            except EOFError:
                answer = "quit"
            if answer in ("quit", "q"):
                save_progress(path, data)
                return 0
            if answer == "skip":
                break
            try:
                verdict = puzzle_book.check(puzzle, answer)
            except puzzle_book.BadAnswer as exc:
                console.print(f"[red]{escape(str(exc))}[/red] Try again.")
        seen.append(puzzle["id"])
        done += 1
        if verdict is None:
            continue
        _tell(console, verdict, puzzle)
        if themes:  # after the answer, as lichess shows them: they would give it away
            console.print(f"[dim]Themes: {themes}.[/dim]")
        if streak:
            if verdict.solved:
                solved_in_streak += 1
            else:
                best = max(int(data["best_streak"].get(game, 0)), solved_in_streak)
                data["best_streak"][game] = best
                console.print(f"Streak over: {solved_in_streak} solved (best {best}).")
                save_progress(path, data)
                return 0
        else:
            after, puzzle_after = attempt(player, shown_rating, verdict.solved)
            data["ratings"][game] = after.to_json()
            data["puzzles"][puzzle["id"]] = puzzle_after.to_json()
            change = after.rating - player.rating
            console.print(f"Your puzzle rating ({game}): {after.rating:.0f} "
                          f"({change:+.0f}), ±{2 * after.rd:.0f}")
        save_progress(path, data)
    if streak:
        data["best_streak"][game] = max(int(data["best_streak"].get(game, 0)),
                                        solved_in_streak)
    save_progress(path, data)
    return 0


def _tell(console: Console, verdict: puzzle_book.Verdict, puzzle: dict[str, Any]) -> None:
    best = f"{verdict.best_value:.0%}"
    if verdict.solved:
        console.print(f"[green]Right:[/green] [bold]{verdict.best}[/bold], a {best} chance to "
                      f"win the game; the next best move has {100 * puzzle['margin']:.0f} points "
                      "less.")
        return
    mine = "" if verdict.value is None else f" ({verdict.value:.0%})"
    console.print(f"[red]Not this time:[/red] {verdict.move}{mine}. The best move was "
                  f"[bold]{verdict.best}[/bold], a {best} chance to win the game.")
