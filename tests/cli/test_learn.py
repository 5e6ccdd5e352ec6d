"""``usotsuki learn``: the lessons in the terminal, and the progress it keeps."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from play_helpers import script
from rich.console import Console

from usotsuki.cli.learn import mark_done, read_progress, run_learn
from usotsuki.cli.loop import BAD_OPTIONS, DONE, LEFT
from usotsuki.lessons import lessons


def learn(game: str, *answers: str, progress: Path, **options: object) -> tuple[int, str, str]:
    screen, errors = io.StringIO(), io.StringIO()
    code = run_learn(game, console=Console(file=screen, width=100, color_system=None),
                     errors=Console(file=errors, width=100, color_system=None),
                     ask=script(*answers), progress=progress, **options)  # type: ignore[arg-type]
    return code, screen.getvalue(), errors.getvalue()


def test_a_wrong_move_is_explained_then_the_right_one_finishes_the_lesson(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    code, out, _ = learn("bluff", "card 3", "pair 7", "card 7", progress=progress, lesson=1)
    assert code == DONE  # the end of input after the first lesson
    assert "card 3 is weaker than card 4" in out  # the engine's reason
    assert "you cannot know it is true" in out  # the lesson's
    assert out.count("Try again.") == 2
    assert "Ben challenges Aki's card Q!" in out  # the bots' replies, through the engine
    assert "Lesson done." in out
    assert read_progress(progress) == ["bluff-call"]


def test_learn_goes_on_from_the_first_lesson_not_finished(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    mark_done(progress, "bluff-call")
    code, out, _ = learn("bluff", "card K", "challenge", "pair 9", progress=progress)
    assert code == DONE
    assert "Lesson 2/3: Challenge a call that cannot be true" in out
    assert "The call is FALSE: Ben loses the round" in out
    assert "You have finished every lesson of this game." in out
    assert read_progress(progress) == ["bluff-call", "bluff-challenge", "bluff-more-cards"]


def test_every_liar_lesson_in_the_terminal_with_its_right_moves(tmp_path: Path) -> None:
    moves = [step.task.right[0] for lesson in lessons("liar") for step in lesson.steps
             if step.task is not None]
    code, out, _ = learn("liar", *moves, progress=tmp_path / "p.json", lang="ja")
    assert code == DONE
    assert out.count("レッスン完了。") == len(lessons("liar"))
    assert "Revolution! (O2)" in out and "6 up!" in out  # the screens' own lines
    assert len(read_progress(tmp_path / "p.json")) == len(lessons("liar"))


def test_quit_keeps_the_progress_and_skip_moves_on(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    code, out, _ = learn("liar", "skip", "help", "quit", progress=progress)
    assert code == LEFT
    assert "Lesson 2/10: Doubt" in out
    assert "turn the current play face up (L9)" in out  # help: the game's own actions
    assert read_progress(progress) == []


def test_bad_options_and_a_broken_progress_file(tmp_path: Path) -> None:
    code, _, err = learn("liar", progress=tmp_path / "p.json", lesson=11)
    assert code == BAD_OPTIONS and "--lesson must be 1 to 10" in err
    code, _, err = learn("chess", progress=tmp_path / "p.json")
    assert code == BAD_OPTIONS and "unknown game" in err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert read_progress(broken) == []  # starts from the first lesson
    code, out, _ = learn("bluff", progress=broken, list_only=True)
    assert code == DONE and "Make a call that exists" in out


def test_the_command_runs_and_keeps_progress_in_the_data_directory(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "usotsuki.cli.main", "learn", "bluff"],
                          input="card 7\ncard K\nchallenge\npair 9\n", capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "your move> card 7" in done.stdout  # piped moves are echoed
    saved = json.loads((tmp_path / "usotsuki" / "lessons.json").read_text())
    assert saved == {"done": ["bluff-call", "bluff-challenge", "bluff-more-cards"]}
    listed = subprocess.run([sys.executable, "-m", "usotsuki.cli.main", "learn", "bluff",
                             "--list"], capture_output=True, text=True, env=env, timeout=120)
    assert listed.stdout.count("✓") == 3
