"""Japanese and English: chosen from the browser, switchable, remembered; rules help."""

from __future__ import annotations

from typing import Any

from e2e_helpers import create_table, shot, start


def test_language_from_browser_switch_and_remember(new_page: Any) -> None:
    page = new_page(locale="ja-JP")
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("h1") == "テーブルを作る"
    assert page.get_attribute("html", "lang") == "ja"
    shot(page, "01-home-ja")
    page.click("#lang-switch")
    assert page.inner_text("h1") == "Create a table"
    shot(page, "01-home-en")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("h1") == "Create a table"  # remembered over the browser's choice

    create_table(page, "bluff", "花子", ["bot:random", "bot:random"])
    start(page)
    page.wait_for_selector(".turn.yours, body[data-status=finished]")
    page.keyboard.press("l")  # the documented shortcut
    assert page.inner_text("#help-open") == "ルールと操作"
    assert page.inner_text(".log li >> nth=0") == "第1ゲーム開始。"
    shot(page, "13-table-ja")

    page.keyboard.press("?")
    page.wait_for_selector("#help[open]")
    assert "チャレンジ" in page.inner_text("#help")
    shot(page, "14-help-ja")
    page.keyboard.press("Escape")
    page.click("#lang-switch")
    page.click("#help-open")
    assert "challenge" in page.inner_text("#help")


def test_rules_page_in_both_languages(new_page: Any) -> None:
    page = new_page(locale="en-GB")
    page.goto("/rules.html")
    page.wait_for_selector("body[data-ready='1']")
    assert "straight flush" in page.inner_text("main")
    page.click("#lang-switch")
    assert "ストレートフラッシュ" in page.inner_text("main")
    shot(page, "15-rules-ja")


def test_keyboard_only_bluff_call(new_page: Any) -> None:
    """Tab reaches the call picker; Enter presses buttons; focus is visible."""
    page = new_page()
    create_table(page, "bluff", "Kei", ["bot:random", "bot:random"], {"max_cards": 3})
    start(page)
    page.wait_for_selector(".turn.yours, body[data-status=finished]")
    if page.locator("#picker").count() == 0:
        return  # this deal left no call to make (B10): nothing to pick
    page.focus(".pick-step >> nth=0 >> button >> nth=0")
    page.keyboard.press("Enter")
    presses = 0
    while page.locator("#make-call").is_disabled():
        assert presses < 8, "the picker's steps did not make a call"
        steps = page.locator(".pick-step").count()
        page.focus(f".pick-step >> nth={steps - 1} >> button >> nth=0")
        page.keyboard.press("Enter")
        presses += 1
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.focus("#make-call")
    before = page.get_attribute("body", "data-n")
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.n) > {before}")
    assert "You call" in page.inner_text("#log")
