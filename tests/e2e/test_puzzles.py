"""Puzzles in the browser, in English and Japanese: a puzzle shown as its seat saw it,
the right answer (rating up), a wrong one (the best move told), streak mode, on a
1366x768 screen and a phone; axe-clean."""

from __future__ import annotations

from typing import Any

from e2e_helpers import shot

from usotsuki.analysis import puzzle_book


def _answer(page: Any, right: bool) -> str:
    """Pick the puzzle's best move (or another); returns the puzzle's id."""
    pid = page.locator("#puzzle").get_attribute("data-id")
    puzzle = puzzle_book.find(pid)
    assert puzzle is not None
    move = puzzle["best"] if right else next(
        o["action"] for o in puzzle["options"] if o["action"] != puzzle["best"])
    page.click(f'#choices button[data-action="{move}"]')
    page.wait_for_selector("#verdict.right" if right else "#verdict.wrong")
    return pid


def test_a_rated_puzzle_in_english_and_a_streak(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    page.goto("/puzzles.html?game=bluff")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#question").text_content() in (
        "Raise or challenge?", "Which call?")
    assert "1500" in page.locator("#my-rating").text_content()
    hand = page.locator("#hand .card").count()
    assert hand >= 1
    shot(page, "30-puzzle-bluff-en")
    _answer(page, right=True)
    assert "Right:" in page.locator("#verdict").text_content()
    rating = int(page.locator("#my-rating").text_content().split(":")[1].split("(")[0])
    assert rating > 1500
    shot(page, "31-puzzle-solved-en")
    page.click("#next")
    page.wait_for_selector("#verdict:not(.right):not(.wrong)", state="attached")
    _answer(page, right=False)
    assert "The best move was" in page.locator("#verdict").text_content()
    # streak mode: a miss ends it and keeps the best
    page.click("#mode-streak")
    page.wait_for_selector("#verdict:not(.right):not(.wrong)", state="attached")
    _answer(page, right=True)
    page.click("#next")
    page.wait_for_selector("#verdict:not(.right):not(.wrong)", state="attached")
    _answer(page, right=False)
    assert "Streak over: 1 solved." in page.locator("#verdict").text_content()
    page.wait_for_function("document.querySelector('#my-streak').textContent.includes('1')")


def test_a_liar_puzzle_in_japanese_on_a_phone(new_page: Any) -> None:
    page = new_page(locale="ja-JP", phone=True)
    page.goto("/puzzles.html?game=liar")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("h1").text_content() == "パズル"
    assert page.locator("#question").text_content() in (
        "ダウトするか、しないか？", "パスか、出すか？", "どの数字で出す？", "どのカードを出す？")
    assert "山札" in page.locator("#table-state").text_content()
    shot(page, "32-puzzle-liar-ja-phone")
    _answer(page, right=False)
    assert "最善は" in page.locator("#verdict").text_content()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 391  # nothing wider than the phone
    shot(page, "33-puzzle-liar-ja-answered")
