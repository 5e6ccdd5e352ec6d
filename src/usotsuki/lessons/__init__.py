"""Lessons: short interactive tutorials on scripted deals, played on the real engine.

The content is data (:mod:`usotsuki.lessons.content`, the JSON files beside it), taught
by the terminal (``usotsuki learn``) and the browser (``/learn.html``) alike; a run
(:mod:`usotsuki.lessons.run`) hands every move to the game's core.
"""

from usotsuki.lessons.content import Lesson, Task, Text, all_lessons, find, lessons
from usotsuki.lessons.run import LessonRun, Shown, Verdict, replay_answers

__all__ = ["Lesson", "LessonRun", "Shown", "Task", "Text", "Verdict", "all_lessons", "find",
           "lessons", "replay_answers"]
