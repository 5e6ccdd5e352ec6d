"""A lesson played on the real engine: its deal and script go through a game session
(:mod:`usotsuki.session`), whose core judges every move, the person's and the bots'.

:meth:`LessonRun.start` makes the lesson's steps up to its first task; each
:meth:`LessonRun.attempt` hands the core the person's move: the core refuses an illegal
one with its own reason, then the task accepts the move it asks for or says why not (the
run stays where it was, for another try). An accepted move is made, then the task's
replies, and the run goes on to the next task or the end. Runs are immutable values: a
shell keeps the latest, the browser's server rebuilds it from the accepted moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from usotsuki import bluff, liar
from usotsuki.cards import DECK, format_cards, parse_cards
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.events import Event, events_for
from usotsuki.games import AnySession, game
from usotsuki.lessons.content import Condition, Lesson, Task, Text


@dataclass(frozen=True, slots=True)
class Shown:
    """One thing the person is shown, in order: a text of the lesson, or an action (or a
    deal) with the events their seat may see and the sessions before and after it."""

    say: Text | None = None
    seat: int | None = None
    action: Any = None
    events: tuple[Event, ...] = ()
    before: AnySession | None = None
    after: AnySession | None = None

    def to_json(self) -> dict[str, Any]:
        if self.say is not None:
            return {"say": self.say.to_json()}
        return {"seat": self.seat, "events": [e.to_json() for e in self.events]}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to one try: ``accepted``, or the core's ``reason`` for refusing it
    (None when the move is legal) and the lesson's ``explain``."""

    accepted: bool
    action: str | None
    reason: str | None = None
    explain: Text | None = None

    def to_json(self) -> dict[str, Any]:
        return {"accepted": self.accepted, "action": self.action, "reason": self.reason,
                "explain": None if self.explain is None else self.explain.to_json()}


def _chance(lesson: Lesson, deal: dict[str, Any]) -> dict[str, Any]:
    """A deal as the session takes it: a Liar Game stock given only in part (or not at
    all) goes on with the cards in no hand and not yet in it, in the deck's order."""
    if lesson.game != "liar":
        return deal
    placed = {c for hand in deal["hands"] for c in parse_cards(hand)}
    top = list(parse_cards(deal.get("stock", ())))
    rest = [c for c in DECK if c not in placed and c not in top]
    return {"hands": deal["hands"], "stock": format_cards(top + rest).split()}


def new_session(lesson: Lesson) -> AnySession:
    entry = game(lesson.game)
    rules = entry.rules(len(lesson.names_in("en")), lesson.rules)
    return entry.session(rules, lesson.seed, lesson.games, lesson.names_in("en"))


@dataclass(frozen=True, slots=True)
class LessonRun:
    lesson: Lesson
    session: AnySession
    at: int = 0
    """The index of the next step (while a task waits: that task's)."""
    dealt: int = 0
    answers: tuple[str, ...] = field(default=())
    """The person's accepted moves, canonical."""

    @classmethod
    def start(cls, lesson: Lesson) -> tuple[LessonRun, list[Shown]]:
        """The lesson from its beginning up to its first task."""
        return cls(lesson, new_session(lesson))._go_on([])

    @property
    def task(self) -> Task | None:
        """The task waiting for the person's move, None once the lesson is over."""
        return self.lesson.steps[self.at].task if self.at < len(self.lesson.steps) else None

    @property
    def finished(self) -> bool:
        return self.at >= len(self.lesson.steps)

    def view(self) -> Any:
        """The person's view now (None before a Liar Game's first deal)."""
        if getattr(self.session, "state", None) is None:
            return None
        return self.session.view(self.lesson.seat)

    def attempt(self, text: str) -> tuple[Verdict, LessonRun, list[Shown]]:
        """The person's move for the waiting task: refused (the same run, nothing shown)
        or accepted (the run after it, with what it led to)."""
        task = self.task
        if task is None:
            raise ValueError("the lesson is over: no move is asked for")
        try:
            action: Any = self.session.parse_action(text)
            after, events = self.session.apply(action)
        except UsotsukiError as exc:
            return Verdict(False, None, str(exc), task.illegal), self, []
        canonical = self.session.format_action(action)
        if not matches(task.accept, self.session, action, canonical):
            why = next((w.say for w in task.wrong
                        if matches(w.when, self.session, action, canonical)), task.otherwise)
            return Verdict(False, canonical, None, why), self, []
        run, shown = replace(self, answers=(*self.answers, canonical))._made(action, after,
                                                                             events)
        for reply in task.then:
            run, steps = run._act(reply)
            shown += steps
        shown.append(Shown(say=task.done))
        run = replace(run, at=run.at + 1)
        run, shown = run._go_on(shown)
        return Verdict(True, canonical), run, shown

    def _shown(self, action: Any, after: AnySession, events: tuple[Event, ...]) -> Shown:
        seat = self.session.to_move
        return Shown(seat=seat, action=action, events=tuple(events_for(events, self.lesson.seat)),
                     before=self.session, after=after)

    def _made(self, action: Any, after: AnySession, events: tuple[Event, ...]
              ) -> tuple[LessonRun, list[Shown]]:
        """``action``, applied already (``after``, ``events``), as shown; then the deal it
        makes due (the next game of a match), shown before what the lesson says next."""
        shown = [self._shown(action, after, events)]
        run, dealt = replace(self, session=after)._deal_if_due()
        return run, shown + ([] if dealt is None else [dealt])

    def _act(self, text: str) -> tuple[LessonRun, list[Shown]]:
        """A scripted action, checked by the core like any other."""
        action: Any = self.session.parse_action(text)
        return self._made(action, *self.session.apply(action))

    def _deal_if_due(self) -> tuple[LessonRun, Shown | None]:
        if not self.session.chance_due or self.dealt >= len(self.lesson.deals):
            return self, None
        after, events = self.session.deal(_chance(self.lesson, self.lesson.deals[self.dealt]))
        shown = Shown(events=tuple(events_for(events, self.lesson.seat)), before=self.session,
                      after=after)
        return replace(self, session=after, dealt=self.dealt + 1), shown

    def _go_on(self, shown: list[Shown]) -> tuple[LessonRun, list[Shown]]:
        """Make the steps up to the next task (or the end)."""
        run = self
        while run.at < len(run.lesson.steps):
            step = run.lesson.steps[run.at]
            if step.say is not None:
                shown.append(Shown(say=step.say))
            else:
                run, dealt = run._deal_if_due()
                if dealt is not None:
                    shown.append(dealt)
                if step.task is not None:
                    return run, shown
                assert step.act is not None
                run, steps = run._act(step.act)
                shown += steps
            run = replace(run, at=run.at + 1)
        return run, shown


def replay_answers(lesson: Lesson, answers: list[str]) -> tuple[LessonRun, list[Shown]]:
    """The run after the person's ``answers`` (each must be accepted in turn), with all it
    showed. :raises ValueError: for an answer its task refuses, or too many answers."""
    run, shown = LessonRun.start(lesson)
    for i, text in enumerate(answers):
        verdict, run, more = run.attempt(text)
        if not verdict.accepted:
            raise ValueError(f"answer {i} ({text!r}) is not accepted")
        shown += more
    return run, shown


def matches(condition: Condition, session: AnySession, action: Any, text: str) -> bool:
    """Whether ``action`` (legal in ``session``, canonical ``text``) is what ``condition``
    describes. Its truth and its cards are read from the cores (B8, L9)."""
    c = condition
    if c.action is not None and text not in c.action:
        return False
    word = text.split()[0]
    if c.kind is not None and c.kind != word and not (
            c.kind == "call" and isinstance(action, bluff.Call)):
        return False
    if c.sure is not None:
        hand = session.view(session.to_move).hand or ()
        sure = isinstance(action, bluff.Call) and bluff.is_true(action, (tuple(hand),))
        if sure != c.sure:
            return False
    cards: tuple[Any, ...] = getattr(action, "cards", ())
    if c.count is not None and len(cards) != c.count:
        return False
    if c.min_count is not None and len(cards) < c.min_count:
        return False
    rates = [liar.RATE_NAMES[liar.rate_of(card)] for card in cards]
    if c.card_rates is not None and not (cards and all(r in c.card_rates for r in rates)):
        return False
    if isinstance(action, liar.Play):
        declared = liar.RATE_NAMES[action.rate]
        if c.rate is not None and declared not in c.rate:
            return False
        if c.truthful is not None and all(r == declared for r in rates) != c.truthful:
            return False
    elif c.rate is not None or c.truthful is not None:
        return False
    return True
