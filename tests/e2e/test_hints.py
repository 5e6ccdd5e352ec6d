"""Honest hints at the table (issue 11): at your turn, when there is a claim to judge,
the chance it is true given how people play and from the cards alone, both labelled, in
English and in Japanese."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from e2e_helpers import ANY_TURN, bluff_turn, create_table, liar_turn, shot, start


def check_hint(page: Any, game: str, options: dict[str, Any], judge: str,
               play: Callable[[Any, random.Random], None], shots: tuple[str, str]) -> None:
    """Play turns until ``judge`` (the doubt or challenge button) is offered, then open the
    hint (its toggle) and check it shows both labelled numbers, in English and (after
    ``l``) in Japanese; before that, with nothing to judge, neither hint nor toggle shows."""
    create_table(page, game, "Alice", ["bot:normal"], options)
    start(page)
    rng = random.Random(1)
    for _ in range(60):
        page.wait_for_selector(ANY_TURN)
        if page.get_attribute("body", "data-status") == "finished":
            break
        if page.locator(judge).count():
            # Behind a toggle (the server computes hints only for those who look).
            assert page.locator("#truth-hint").count() == 0
            page.click("#hint-toggle")
            hint = page.locator("#truth-hint")
            hint.wait_for()
            text = hint.inner_text()
            assert "given how people play" in text and "from the cards alone" in text
            assert text.count("%") == 2
            shot(page, shots[0])
            page.keyboard.press("l")
            text = page.inner_text("#truth-hint")
            assert "人の打ち方を踏まえると" in text and "カードだけから計算すると" in text
            shot(page, shots[1])
            return
        assert page.locator("#truth-hint").count() == 0  # nothing to judge yet
        assert page.locator("#hint-toggle").count() == 0
        play(page, rng)
    raise AssertionError(f"no {judge} was offered in 60 turns")


def test_liar_hint_shows_both_numbers_in_both_languages(new_page: Any) -> None:
    check_hint(new_page(), "liar", {"turn_limit": 200}, "#doubt",
               lambda page, rng: liar_turn(page, rng, doubt=0.0),
               ("15-liar-hint-en", "16-liar-hint-ja"))


def test_bluff_hint_shows_both_numbers_in_both_languages(new_page: Any) -> None:
    """The Bluff hint: with the shipped calibration fitted (``mix`` records ``fitted_on``),
    both the calibrated number and the card odds show, labelled, in both languages."""
    from usotsuki.bots.bluff.hints import calibration_fitted

    assert calibration_fitted()  # otherwise only the card odds would show
    check_hint(new_page(), "bluff", {}, "#challenge",
               lambda page, rng: bluff_turn(page, rng, challenge=0.0),
               ("17-bluff-hint-en", "18-bluff-hint-ja"))
