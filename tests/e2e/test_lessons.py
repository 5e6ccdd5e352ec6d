"""The lessons in the browser: a lesson of each game in each language, from the list to
its end, a wrong move explained and tried again, progress kept in the browser."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import english_left, shot

# The notation (RULES.md Part 3) is the same in both languages: it is what people type.
NOTATION = {"card", "pair", "four", "challenge", "play", "as", "pass", "doubt", "give"}


def open_lesson(page: Any, lesson: str) -> None:
    page.goto("/learn.html")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"li[data-lesson='{lesson}'] a")
    page.wait_for_selector("body[data-ready='1'] #task:not([hidden])")


def pick_call(page: Any, *tokens: str) -> None:
    for depth, token in enumerate(tokens):
        page.click(f"#pick-{depth}-{token}")
    page.click("#make-call")


def choose_play(page: Any, cards: list[str], rate: str) -> None:
    for card in cards:
        page.click(f"#hand button[data-card='{card}']")
    page.click(f"#rate-{rate}")
    page.click("#play")


def finished(page: Any) -> None:
    page.wait_for_selector("#finished:not([hidden])")
    assert page.locator("#task").is_hidden() and page.locator("#controls button").count() == 0


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_bluff_lesson_wrong_then_right(new_page: Any, locale: str) -> None:
    page = new_page(locale=locale)
    ja = locale.startswith("ja")
    open_lesson(page, "bluff-call")
    assert ("ブラフへようこそ" if ja else "Welcome to Bluff") in page.inner_text("#transcript")
    assert page.inner_text("#hand").replace("\n", "").startswith("7")
    pick_call(page, "pair", "7")  # legal, but nothing proves it
    page.wait_for_selector("#feedback:not([hidden])")
    why = "本当かどうかわかりません" if ja else "you cannot know it is true"
    assert why in page.inner_text("#feedback")
    if ja:
        page.fill("#move", "card 3")  # typed: the engine refuses it, then the lesson says why
        page.click("#typed button")
        page.wait_for_selector("#feedback .explain >> text=「4が1枚」より強く")
        assert set(english_left(page, "#lesson")) <= NOTATION  # Japanese, but what is typed
    else:
        page.fill("#move", "card 3")
        page.click("#typed button")
        page.wait_for_selector("#feedback .reason")
        assert "card 3 is weaker than card 4" in page.inner_text("#feedback .reason")
        page.fill("#move", "<img src=x onerror=alert(1)>")  # what is typed stays text
        page.click("#typed button")
        page.wait_for_selector("#feedback .reason >> text=<img")
        assert page.locator("#feedback img").count() == 0
    shot(page, f"learn-bluff-wrong-{locale[:2]}")
    pick_call(page, "card", "7")
    finished(page)
    log = page.inner_text("#transcript")
    assert ("Q♠" in log or "QS" in page.inner_html("#transcript"))  # the challenge's hands, face up
    assert ("アキ" if ja else "Aki") in log
    shot(page, f"learn-bluff-done-{locale[:2]}")
    page.click("#finished a.secondary")  # back to the list: the lesson is ticked
    page.wait_for_selector("li[data-lesson='bluff-call'].done")
    assert page.locator("li[data-lesson='bluff-challenge'] .badge.next").count() == 1
    shot(page, f"learn-index-{locale[:2]}")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_liar_lesson_wrong_then_right(new_page: Any, locale: str) -> None:
    page = new_page(locale=locale)
    ja = locale.startswith("ja")
    open_lesson(page, "liar-play")
    choose_play(page, ["9C"], "5")  # a lie: legal, but this task asks for the truth
    page.wait_for_selector("#feedback:not([hidden])")
    assert ("嘘です" if ja else "it is a lie") in page.inner_text("#feedback")
    shot(page, f"learn-liar-wrong-{locale[:2]}")
    page.click("#hand button[data-card='9C']")  # unselect it
    choose_play(page, ["5H"], "5")
    finished(page)
    if ja:
        assert set(english_left(page, "#lesson")) <= NOTATION
    page.click("#next")  # on to the next lesson: doubt
    page.wait_for_selector("body[data-ready='1'] #task:not([hidden])")
    page.click("#pass")
    page.wait_for_selector("#feedback:not([hidden])")
    page.click("#doubt")
    finished(page)
    assert ("4♣" in page.inner_text("#transcript"))
    shot(page, f"learn-liar-done-{locale[:2]}")
    done = page.evaluate("JSON.parse(localStorage.getItem('usotsuki.lessons.done'))")
    assert done == ["liar-play", "liar-doubt"]


def test_lesson_on_a_phone(new_page: Any) -> None:
    page = new_page(phone=True)
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    page.click("#learn-link")  # the home page sends a new player to the lessons
    page.wait_for_selector("body[data-ready='1'] li[data-lesson='liar-binding']")
    open_lesson(page, "liar-binding")
    assert page.locator("#lesson-codes a[href='/rules.html#O6']").count() == 1  # the rule book
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    shot(page, "learn-liar-phone")
    choose_play(page, ["5C"], "5")
    finished(page)
