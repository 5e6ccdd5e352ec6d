"""The lessons in the browser (``/learn.html``): their list, and each lesson played.

A lesson's state lives in the page: the moves its tasks accepted so far. Each request
replays them on the real engine (:mod:`usotsuki.lessons`, a few actions: no state is
kept here, so any worker answers), then judges the new try, and answers with everything
the lesson showed, the person's view and what may be done now.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from usotsuki.core.game import GAMES
from usotsuki.games import entry_of
from usotsuki.lessons import find, lessons, replay_answers
from usotsuki.server import schemas
from usotsuki.server.config import Refused

router = APIRouter(prefix="/api", responses={400: {"model": schemas.Problem},
                                             404: {"model": schemas.Problem}})


@router.get("/lessons")
def lesson_list() -> dict[str, Any]:
    """Every lesson, by game, in the order they are meant to be taken."""
    return {"games": {game: [lesson.summary_json() for lesson in lessons(game)]
                      for game in GAMES}}


@router.post("/lessons/{lesson_id}")
def lesson_play(lesson_id: str, moves: schemas.LessonMoves) -> dict[str, Any]:
    """The lesson after ``answers`` (each must be what its task accepted) and, with
    ``try``, the verdict on a move for the task waiting: ``{lesson, shown, verdict, task,
    view, legal, finished, answers}``. ``shown`` lists, from the beginning, the lesson's
    texts (``{"say": {"en", "ja"}}``) and each action or deal with the events the
    person's seat may see (``{"seat", "events"}``)."""
    lesson = find(lesson_id)
    if lesson is None:
        raise Refused("not_found", f"no lesson {lesson_id!r}", 404)
    try:
        run, shown = replay_answers(lesson, moves.answers)
    except ValueError as exc:
        raise Refused("bad_request", str(exc)) from None
    verdict = None
    if moves.attempt is not None:
        if run.task is None:
            raise Refused("bad_request", "the lesson is over: no move is asked for")
        verdict, run, more = run.attempt(moves.attempt)
        shown += more
    view = run.view()
    order = lessons(lesson.game)
    index = order.index(lesson)
    return {
        "lesson": {**lesson.summary_json(), "names": lesson.names, "seat": lesson.seat,
                   "next": order[index + 1].id if index + 1 < len(order) else None},
        "shown": [item.to_json() for item in shown],
        "verdict": None if verdict is None else verdict.to_json(),
        "task": None if run.task is None else {"ask": run.task.ask.to_json()},
        "view": None if view is None else view.to_json(),
        "legal": None if run.task is None else entry_of(run.session).legal_json(run.session),
        "finished": run.finished,
        "answers": list(run.answers),
    }
