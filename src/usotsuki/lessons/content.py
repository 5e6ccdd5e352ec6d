"""The lessons as data: one JSON file per game (``bluff.json``, ``liar.json``) read into
typed values, the one source both shells teach from (``usotsuki learn``, the browser's
``/learn.html``).

A lesson is a fixed deal and a script. Its steps are text to read (``say``), an action
made at a seat (``act``: a bot's reply, or a move made for the person to move things
along) and tasks (``task``: the person must make a move the task accepts). Nothing in a
lesson decides a rule: its actions go through the game's core, which refuses any that is
illegal; a task only says which legal moves teach what it asks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from usotsuki.core.game import GAMES

LANGUAGES = ("en", "ja")


@dataclass(frozen=True, slots=True)
class Text:
    """The same words in each language."""

    en: str
    ja: str

    def __call__(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "ja": self.ja}


@dataclass(frozen=True, slots=True)
class Condition:
    """What a move must be to match (every field given must hold; None: any).

    ``action``: canonical texts (RULES.md Part 3), one of which it is; ``kind``: its first
    word (``call``: any Bluff call); ``sure``: a Bluff call the mover's own hand makes true
    (B8); ``count``/``min_count``: a Liar Game play's or give's number of cards;
    ``rate``: the rates a play may declare; ``card_rates``: the rates every card of a play
    or give must have; ``truthful``: a play whose every card has its declared rate (L9)."""

    action: tuple[str, ...] | None = None
    kind: str | None = None
    sure: bool | None = None
    count: int | None = None
    min_count: int | None = None
    rate: tuple[str, ...] | None = None
    card_rates: tuple[str, ...] | None = None
    truthful: bool | None = None


@dataclass(frozen=True, slots=True)
class Wrong:
    """A legal move the task refuses, and why."""

    when: Condition
    say: Text


@dataclass(frozen=True, slots=True)
class Task:
    """A move the person must get right; on a wrong one, the reason and another try."""

    ask: Text
    accept: Condition
    wrong: tuple[Wrong, ...]
    otherwise: Text
    """Why a legal move that matches no ``wrong`` is refused."""
    illegal: Text
    """Said after the core's own reason when it refuses the move."""
    done: Text
    """Said once the accepted move and ``then`` have been made."""
    then: tuple[str, ...]
    """The other seats' replies after the accepted move, made through the core."""
    right: tuple[str, ...]
    """Moves the task accepts (tests make each, then ``then``)."""
    refused: tuple[str, ...]
    """Moves the task refuses (tests check each is refused with a reason)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson: exactly one of ``say``, ``act``, ``task``."""

    say: Text | None = None
    act: str | None = None
    task: Task | None = None


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    game: str
    title: Text
    summary: Text
    codes: tuple[str, ...]
    """The rules it teaches (RULES.md numbers)."""
    names: dict[str, tuple[str, ...]]
    """The seats' names in each language (the person's is "You")."""
    seat: int
    """The person's seat."""
    rules: dict[str, Any]
    games: int
    seed: int
    deals: tuple[dict[str, Any], ...]
    """The chance data of each deal in order (a Liar Game deal's stock may be left out:
    the cards not in a hand, in the deck's order)."""
    steps: tuple[Step, ...]

    def summary_json(self) -> dict[str, Any]:
        """What a list of lessons shows of it."""
        return {"id": self.id, "game": self.game, "title": self.title.to_json(),
                "summary": self.summary.to_json(), "codes": list(self.codes)}

    def names_in(self, lang: str) -> tuple[str, ...]:
        return self.names["ja" if lang == "ja" else "en"]


def _text(raw: Any, where: str) -> Text:
    if not isinstance(raw, dict) or set(raw) != set(LANGUAGES) or \
            not all(isinstance(raw[k], str) and raw[k] for k in LANGUAGES):
        raise ValueError(f"{where}: a text needs exactly the keys {LANGUAGES}, each a string")
    return Text(raw["en"], raw["ja"])


def _strings(raw: Any) -> tuple[str, ...] | None:
    return None if raw is None else tuple(str(x) for x in raw)


def _condition(raw: dict[str, Any], where: str) -> Condition:
    known = set(Condition.__slots__)
    unknown = set(raw) - known
    if unknown:
        raise ValueError(f"{where}: unknown condition {sorted(unknown)}")
    return Condition(action=_strings(raw.get("action")), kind=raw.get("kind"),
                     sure=raw.get("sure"), count=raw.get("count"),
                     min_count=raw.get("min_count"), rate=_strings(raw.get("rate")),
                     card_rates=_strings(raw.get("card_rates")), truthful=raw.get("truthful"))


def _task(raw: dict[str, Any], where: str) -> Task:
    return Task(
        ask=_text(raw["ask"], f"{where}.ask"),
        accept=_condition(raw["accept"], f"{where}.accept"),
        wrong=tuple(Wrong(_condition(w["when"], f"{where}.wrong"),
                          _text(w["say"], f"{where}.wrong")) for w in raw.get("wrong", ())),
        otherwise=_text(raw["otherwise"], f"{where}.otherwise"),
        illegal=_text(raw["illegal"], f"{where}.illegal"),
        done=_text(raw["done"], f"{where}.done"),
        then=tuple(raw.get("then", ())), right=tuple(raw["right"]),
        refused=tuple(raw["refused"]))


def _step(raw: dict[str, Any], where: str) -> Step:
    if len(raw) != 1 or next(iter(raw)) not in ("say", "act", "task"):
        raise ValueError(f"{where}: a step is one of say, act, task")
    if "say" in raw:
        return Step(say=_text(raw["say"], where))
    if "act" in raw:
        return Step(act=str(raw["act"]))
    return Step(task=_task(raw["task"], where))


def _lesson(raw: dict[str, Any], game: str) -> Lesson:
    where = f"{game}:{raw.get('id')}"
    steps = tuple(_step(s, f"{where} step {i}") for i, s in enumerate(raw["steps"]))
    if not steps or steps[-1].task is None:
        raise ValueError(f"{where}: a lesson ends in a task")
    return Lesson(
        id=raw["id"], game=game, title=_text(raw["title"], f"{where}.title"),
        summary=_text(raw["summary"], f"{where}.summary"), codes=tuple(raw["codes"]),
        names={lang: tuple(raw["names"][lang]) for lang in LANGUAGES},
        seat=int(raw.get("seat", 0)), rules=dict(raw["rules"]),
        games=int(raw.get("games", 1)), seed=int(raw.get("seed", 0)),
        deals=tuple(raw["deals"]), steps=steps)


@cache
def lessons(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game`` in the order they are meant to be taken.

    :raises ValueError: for an unknown game, or lesson data that is not well formed.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    raw = json.loads(resources.files(__package__).joinpath(f"{game}.json").read_text("utf-8"))
    found = tuple(_lesson(item, game) for item in raw["lessons"])
    ids = [lesson.id for lesson in found]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{game}: two lessons share an id")
    return found


def all_lessons() -> tuple[Lesson, ...]:
    return tuple(lesson for game in GAMES for lesson in lessons(game))


def find(lesson_id: str) -> Lesson | None:
    """The lesson named ``lesson_id``, or None."""
    return next((lesson for lesson in all_lessons() if lesson.id == lesson_id), None)
