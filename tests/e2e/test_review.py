"""The game review after a game: the Review button, its progress, then the marks, the
odds at each step, the win-chance chart and the players' cards, in both languages."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from conftest import LiveServer
from e2e_helpers import review_a_bot_game, shot

# a second folder for the review's screenshots, when asked (besides screenshots/)
SHOTS = Path(os.environ["USOTSUKI_REVIEW_SHOTS"]) if os.environ.get("USOTSUKI_REVIEW_SHOTS") \
    else None
HERE = Path(__file__).resolve().parent


def test_review_after_a_game_in_english_and_japanese(new_page: Any,
                                                       review_server: LiveServer) -> None:
    """Three bots play a short Bluff game (B13's 24-card deck, out at the second loss);
    a spectator's table page then offers the review, as a player's does."""
    page = new_page()
    review_a_bot_game(page, review_server.url)
    assert page.locator("#review-chart polyline").count() == 3  # one line per player
    assert page.locator("#review-summary .review-card").count() == 3
    assert "Accuracy" in page.inner_text("#review-summary")
    page.click("#forward")  # the first call: its odds and the best move
    step = page.inner_text("#review-step")
    assert "best:" in step or "The only move" in step
    page.keyboard.press("End")
    assert "Challenge" in page.inner_text("#review-step")
    shot(page, "09-review-en")
    keep("09-review-en", "review-en")

    url = page.url  # the same review in Japanese: cached, so at once
    ja = new_page(locale="ja-JP")
    ja.goto(url)
    ja.wait_for_selector("body[data-review=done]", timeout=30_000)
    assert "精度" in ja.inner_text("#review-summary")
    assert ja.inner_text("#review-panel h2") == "解析"
    ja.click("#forward")
    assert "最善手" in ja.inner_text("#review-step") or "唯一" in ja.inner_text("#review-step")
    shot(ja, "10-review-ja")
    keep("10-review-ja", "review-ja")


def keep(name: str, as_name: str) -> None:
    """A copy of screenshots/NAME.png as AS_NAME.png in ``SHOTS``, when it is set."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(HERE.parents[1] / "screenshots" / f"{name}.png",
                        SHOTS / f"{as_name}.png")
