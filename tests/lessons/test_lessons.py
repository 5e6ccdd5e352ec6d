"""The lessons: every script is legal on the engine, every task accepts its right moves
and refuses its wrong ones with a reason, and the list asked for is covered."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from usotsuki.lessons import LessonRun, all_lessons, lessons, replay_answers
from usotsuki.lessons.content import LANGUAGES, Lesson

LESSONS = all_lessons()
MESSAGES = Path(__file__).resolve().parents[2] / "src/usotsuki/server/static/js/messages"
GLOSSARY = MESSAGES / "glossary.json"
AVOID_JA = [p for term in json.loads(GLOSSARY.read_text("utf-8"))["terms"].values()
            for p in term.get("avoid_ja", ())]


def walk(lesson: Lesson) -> list[tuple[LessonRun, int]]:
    """Each task's run, reached with the first right move of the tasks before it."""
    run, _ = LessonRun.start(lesson)
    runs = []
    while run.task is not None:
        runs.append((run, len(runs)))
        verdict, run, _ = run.attempt(run.task.right[0])
        assert verdict.accepted
    return runs


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda x: x.id)
def test_script_is_legal_and_ends_in_a_task(lesson: Lesson) -> None:
    run, shown = LessonRun.start(lesson)
    assert shown and run.task is not None
    assert lesson.steps[-1].task is not None, "a lesson ends in its task"
    final, _ = replay_answers(lesson, [t.right[0] for s in lesson.steps
                                       if (t := s.task) is not None])
    assert final.finished and final.task is None


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda x: x.id)
def test_every_right_move_is_accepted_and_its_replies_are_legal(lesson: Lesson) -> None:
    for run, _ in walk(lesson):
        task = run.task
        assert task is not None and task.right
        for move in task.right:
            verdict, after, shown = run.attempt(move)
            assert verdict.accepted, (move, verdict)
            assert verdict.action is not None
            # the move, then each scripted reply, shown through the engine's events
            actions = [s for s in shown if s.seat is not None]
            assert actions[0].seat == lesson.seat
            assert len(actions) == 1 + len(task.then)
            assert shown[-1].say == task.done or task.done in [s.say for s in shown]
            assert after.answers[-1] == verdict.action


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda x: x.id)
def test_every_wrong_move_is_refused_with_an_explanation(lesson: Lesson) -> None:
    for run, _ in walk(lesson):
        task = run.task
        assert task is not None and task.refused
        for move in task.refused:
            verdict, after, shown = run.attempt(move)
            assert not verdict.accepted, move
            assert after is run and shown == []  # nothing happened: try again
            assert verdict.explain is not None
            assert all(verdict.explain(lang) for lang in LANGUAGES)


def test_an_illegal_move_gets_the_engines_reason_then_the_lessons() -> None:
    lesson = next(x for x in lessons("liar") if x.id == "liar-binding")
    run, _ = LessonRun.start(lesson)
    verdict, _, _ = run.attempt("play 9H as 9")
    assert verdict.reason is not None and "O6" in verdict.reason
    assert verdict.explain is not None and "5" in verdict.explain("en")


def test_a_legal_wrong_move_is_explained_by_its_own_text() -> None:
    lesson = lessons("bluff")[0]
    run, _ = LessonRun.start(lesson)
    task = run.task
    assert task is not None
    challenge, call = (run.attempt(m)[0] for m in ("challenge", "pair 7"))
    assert challenge.reason is None and call.reason is None
    assert challenge.explain == task.wrong[0].say
    assert call.explain == task.wrong[1].say
    assert run.attempt("card 3")[0].explain == task.illegal  # the engine refuses it


def test_the_tasks_the_issue_asks_for_are_taught() -> None:
    tasks = {lesson.id: [s.task.accept for s in lesson.steps if s.task is not None]
             for lesson in LESSONS}
    assert any(c.sure for c in tasks["bluff-call"])  # a call that exists
    assert any(c.action == ("challenge",) for c in tasks["bluff-challenge"])
    assert any(c.action == ("doubt",) for c in tasks["liar-doubt"])
    assert any(c.action == ("pass",) for c in tasks["liar-pass"])
    taught = {code for lesson in lessons("liar") for code in lesson.codes}
    assert {"O1", "O2", "O3", "O4", "O5", "O6", "O7"} <= taught


def test_house_rule_lessons_play_under_their_rule() -> None:
    by_code = {"O1": "multi", "O2": "revolution", "O3": "eight_cut", "O4": "jack_back",
               "O5": "six_up", "O6": "binding", "O7": "classes"}
    for lesson in lessons("liar"):
        first = lesson.codes[0]
        if first in by_code:
            assert lesson.rules.get(by_code[first]) is True, lesson.id


def test_what_a_lesson_shows_never_holds_another_seats_hidden_cards() -> None:
    lesson = next(x for x in lessons("liar") if x.id == "liar-play")
    run, shown = LessonRun.start(lesson)
    for item in shown:
        for event in item.events:
            data = event.to_json()
            if data["type"] in ("played_cards", "dealt", "drew_cards"):
                assert data["seat"] == lesson.seat


def test_answers_replay_and_a_refused_answer_is_an_error() -> None:
    lesson = lessons("bluff")[1]
    run, _ = replay_answers(lesson, ["card K"])
    assert run.answers == ("card K",) and run.task is not None
    with pytest.raises(ValueError, match="not accepted"):
        replay_answers(lesson, ["card A"])
    with pytest.raises(ValueError):
        replay_answers(lesson, ["card K", "challenge", "challenge"])


def test_every_text_is_written_in_both_languages() -> None:
    for lesson in LESSONS:
        texts = [lesson.title, lesson.summary]
        for step in lesson.steps:
            if step.say is not None:
                texts.append(step.say)
            if step.task is not None:
                t = step.task
                texts += [t.ask, t.otherwise, t.illegal, t.done, *(w.say for w in t.wrong)]
        for text in texts:
            assert text.en.strip() and text.ja.strip()
            for pattern in AVOID_JA:  # the glossary's words (宣言, never コール)
                assert not re.search(pattern, text.ja), (lesson.id, pattern, text.ja)
        assert set(lesson.names) == set(LANGUAGES)


def test_lesson_data_that_is_not_well_formed_is_refused() -> None:
    from usotsuki.lessons.content import _lesson

    raw = json.loads((Path(__file__).resolve().parents[2] / "src/usotsuki/lessons/bluff.json")
                     .read_text("utf-8"))["lessons"][0]
    _lesson(raw, "bluff")  # as shipped
    with pytest.raises(ValueError, match="a lesson ends in a task"):
        _lesson({**raw, "steps": raw["steps"][:1]}, "bluff")
    with pytest.raises(ValueError, match="exactly the keys"):
        _lesson({**raw, "title": {"en": "only English"}}, "bluff")
    with pytest.raises(ValueError, match="one of say, act, task"):
        _lesson({**raw, "steps": [{"say": raw["title"], "act": "card 7"}]}, "bluff")
