"""The review of your own game: the board, the verdict and the chart on screen together
at 1366x768 and on a phone, the best move and the other moves weighed, only your moves,
and retrying your mistakes (the position before each, the others' hands hidden)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import LiveServer
from e2e_helpers import shot

from usotsuki.tournament import Spec, play_game


def your_record(tmp_path: Path) -> Path:
    """A finished Bluff game whose seat 0 is "You" (as ``usotsuki play`` names its person):
    You play as ``easy`` (so marked moves are likely), against two ``normal`` bots."""
    spec = Spec("bluff", 3, ("easy", "normal", "normal"), games=1, seed=3,
                rules="max_cards=2, ranks=6")
    last: list[Any] = []
    play_game(spec, 0, observe=lambda before, seat, action, after: last.append(after))
    record = {**last[-1].record(), "players": ["You", "ann", "bob"]}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(record))
    return path


def open_review(page: Any, record: Path) -> None:
    page.goto("/replay.html")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#viewer:not([hidden])")
    page.click("#review-start")
    page.wait_for_selector("body[data-review=done]", timeout=60_000)
    page.keyboard.press("End")


def on_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 120) \
        <= size["height"] and box["x"] + box["width"] <= size["width"] + 1


def test_board_verdict_and_chart_together(new_page: Any, review_server: LiveServer,
                                          tmp_path: Path) -> None:
    record = your_record(tmp_path)
    for name, page in (("11-review-1366", new_page(size=(1366, 768))),
                       ("12-review-phone", new_page(phone=True))):
        page.goto(review_server.url)
        open_review(page, record)
        page.evaluate("window.scrollTo(0, document.querySelector('#replay-felt')"
                      ".getBoundingClientRect().top + window.scrollY - 4)")
        for part in ("#replay-felt", "#review-step", "#review-chart"):
            assert on_screen(page, part), (name, part)
        shot(page, name)


def test_best_move_only_mine_and_retry(new_page: Any, review_server: LiveServer,
                                       tmp_path: Path) -> None:
    page = new_page(size=(1366, 768))
    page.goto(review_server.url)
    open_review(page, your_record(tmp_path))
    listed = page.locator("#review-moves li")
    everyone = listed.count()
    page.check("#review-only-mine")
    mine = listed.count()
    assert mine <= everyone
    assert all(text.split("·")[1].strip().startswith("You")
               for text in listed.all_inner_texts())
    # a decision with options: the best move and the moves weighed
    page.locator("#review-moves li button").first.click() if mine else page.click("#forward")
    step = page.inner_text("#review-step")
    assert "best:" in step or "The only move" in step
    if page.locator("#review-retry").count():
        page.click("#review-retry")
        assert "what would you play here?" in page.inner_text("#review-step")
        # the others' hands are hidden while you retry, and what came after the position
        # until you choose: the replay's later steps, the chart's later points, the later
        # marked moves
        assert page.locator(".replay-hand.retry-hidden").count() == 2
        at = int(page.get_attribute("body", "data-step") or -1)
        frames = page.locator("#moves li").count()
        assert page.locator("#moves li:not([hidden])").count() == at + 1 < frames
        assert page.is_disabled("#forward") and page.is_disabled("#last")
        page.keyboard.press("End")
        assert int(page.get_attribute("body", "data-step") or -1) == at
        points = page.eval_on_selector("#review-chart polyline", "p => p.points.length")
        assert points == at + 1
        page.locator(".retry-choices button").first.click()
        assert page.locator("#moves li:not([hidden])").count() == frames
        assert page.eval_on_selector("#review-chart polyline",
                                     "p => p.points.length") == frames
        verdict = page.inner_text("#review-step")
        assert "as good as the best" in verdict or "of your chance to win" in verdict
        shot(page, "13-review-retry")
        page.click("#retry-stop")
        assert page.locator(".replay-hand.retry-hidden").count() == 0
