"""The review agrees with the hint: both judge with the shipped expert, so the move the
hint suggests is never marked a mistake or a blunder at the review's default depth (a
loss within its error bar is never marked at all)."""

from __future__ import annotations

import dataclasses
import random

from test_analysis import bot_record  # (its folder is on the path, as pytest imports it)

from usotsuki import liar
from usotsuki.analysis import REVIEWS, plan
from usotsuki.analysis.bluff_review import Point as BluffPoint
from usotsuki.analysis.liar_review import Point as LiarPoint
from usotsuki.bots.base import make_bot
from usotsuki.bots.bluff.hints import bluff_hint

BLUFF = bot_record("bluff", 11, ("normal", "hard", "easy", "normal"))
LIAR = bot_record("liar", 12, ("normal", "hard", "easy"), hand_size=5, turn_limit=60)


def test_the_bluff_hint_is_never_a_mistake_in_the_review() -> None:
    walk = plan(BLUFF)
    review = REVIEWS["bluff"]
    search = review.default_search(None)
    judged = 0
    for point in walk.points[::4][:14]:
        assert isinstance(point, BluffPoint)
        hint = bluff_hint(point.view, ())  # the expert reads what is legal from the view
        asked = dataclasses.replace(point, action=hint.suggestion)
        d = review.judge(asked, search, random.Random(f"trust/{point.frame}"))
        judged += d["mark"] is not None
        assert d["mark"] not in ("mistake", "blunder"), (point.frame, d)
    assert judged >= 8


def test_the_liar_hint_is_never_a_mistake_in_the_review() -> None:
    walk = plan(LIAR)
    review = REVIEWS["liar"]
    search = review.default_search(None)
    adviser = make_bot("liar", "expert")
    judged = 0
    for point in walk.points[::3][:16]:
        assert isinstance(point, LiarPoint)
        v = point.view
        assert v.legal is not None
        suggestion = adviser.act(v, v.legal, random.Random(liar.info_key(v)))
        asked = dataclasses.replace(point, action=suggestion)
        d = review.judge(asked, search, random.Random(f"trust/{point.frame}"))
        judged += d["mark"] is not None
        assert d["mark"] not in ("mistake", "blunder"), (point.frame, d)
    assert judged >= 5
