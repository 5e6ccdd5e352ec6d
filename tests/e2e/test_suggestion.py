"""The suggested move at the table: at your turn *Suggest a move* asks the server's
adviser (the terminal's hint) and shows its move and reason, in English and in Japanese;
the reader's own turn only (tests/server/test_ws_suggestion.py: none where the table's
hints are off)."""

from __future__ import annotations

from typing import Any

from e2e_helpers import create_table, shot, start

MY_TURN = ".turn.yours"


def ask(page: Any, key: str = "") -> tuple[str, str]:
    """Ask (the button, or ``key``) until the suggestion shows: on a busy machine the
    adviser's first answer may miss its deadline while its worker imports the bots
    (answered ``busy``; the button comes back, and a person asks again)."""
    page.wait_for_selector(MY_TURN)
    for _ in range(4):
        page.evaluate("() => { document.getElementById('notice').textContent = ''; }")
        if key:
            page.keyboard.press(key)
        else:
            page.click("#suggest-move")
        page.wait_for_selector("#suggestion, #notice:not(:empty)", timeout=60_000)
        if page.locator("#suggestion").count():
            break
        assert "busy" in page.inner_text("#notice"), page.inner_text("#notice")
        page.wait_for_selector("#suggest-move:not([disabled])")
    return page.inner_text("#suggested-move"), page.inner_text("#suggestion-reason")


def test_a_bluff_suggestion_with_its_reason_in_both_languages(new_page: Any) -> None:
    page = new_page()
    create_table(page, "bluff", "Alice", ["bot:normal"], {})
    start(page)
    move, reason = ask(page)
    assert move and reason and "The expert's move" in page.inner_text("#suggestion")
    assert page.locator("#suggest-move").count() == 0  # answered: shown, not asked again
    shot(page, "35-bluff-suggestion-en")
    page.keyboard.press("l")
    assert "エキスパートのおすすめ" in page.inner_text("#suggestion")
    assert page.inner_text("#suggestion-reason") != reason  # worded in Japanese
    shot(page, "36-bluff-suggestion-ja")
    page.keyboard.press("l")


def test_a_liar_suggestion_by_keyboard(new_page: Any) -> None:
    page = new_page()
    create_table(page, "liar", "Alice", ["bot:normal"], {})
    start(page)
    ask(page, "s")
    assert page.get_attribute("#suggested-move", "title").startswith(("play", "pass", "doubt"))

