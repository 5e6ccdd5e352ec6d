"""Honest hints at the table (issue 11): at your turn, when there is a claim to judge,
the chance it is true given how people play and from the cards alone, both labelled, in
English and in Japanese."""

from __future__ import annotations

import random
from typing import Any

from e2e_helpers import ANY_TURN, bluff_turn, create_table, liar_turn, shot, start


def test_liar_hint_shows_both_numbers_in_both_languages(new_page: Any) -> None:
    page = new_page()
    create_table(page, "liar", "Alice", ["bot:normal"], {"turn_limit": 200})
    start(page)
    rng = random.Random(1)
    for _ in range(60):
        page.wait_for_selector(ANY_TURN)
        if page.get_attribute("body", "data-status") == "finished":
            break
        if page.locator("#doubt").count():
            hint = page.locator("#truth-hint")
            assert hint.count() == 1
            text = hint.inner_text()
            assert "given how people play" in text and "from the cards alone" in text
            assert text.count("%") == 2
            shot(page, "15-liar-hint-en")
            page.keyboard.press("l")
            text = page.inner_text("#truth-hint")
            assert "人の打ち方を踏まえると" in text and "カードだけから計算すると" in text
            shot(page, "16-liar-hint-ja")
            return
        assert page.locator("#truth-hint").count() == 0  # a lead: nothing to judge
        liar_turn(page, rng, doubt=0.0)
    raise AssertionError("no doubt was offered in 60 turns")


def test_bluff_hint_shows_both_numbers_in_both_languages(new_page: Any) -> None:
    """The Bluff hint: with the shipped calibration fitted (``mix`` records ``fitted_on``),
    both the calibrated number and the card odds show, labelled, in both languages."""
    from usotsuki.bots.bluff_hints import calibration_fitted

    assert calibration_fitted()  # otherwise only the card odds would show
    page = new_page()
    create_table(page, "bluff", "Alice", ["bot:normal"], {})
    start(page)
    rng = random.Random(1)
    for _ in range(60):
        page.wait_for_selector(ANY_TURN)
        if page.get_attribute("body", "data-status") == "finished":
            break
        if page.locator("#challenge").count():
            hint = page.locator("#truth-hint")
            assert hint.count() == 1
            text = hint.inner_text()
            assert "given how people play" in text and "from the cards alone" in text
            assert text.count("%") == 2
            shot(page, "17-bluff-hint-en")
            page.keyboard.press("l")
            text = page.inner_text("#truth-hint")
            assert "人の打ち方を踏まえると" in text and "カードだけから計算すると" in text
            shot(page, "18-bluff-hint-ja")
            return
        assert page.locator("#truth-hint").count() == 0  # the first call: nothing to judge
        bluff_turn(page, rng, challenge=0.0)
    raise AssertionError("no challenge was offered in 60 turns")
