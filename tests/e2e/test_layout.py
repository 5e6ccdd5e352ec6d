"""Phone and desktop layouts: nothing wider than the screen, the table readable."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import create_table, shot, start

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_eight_seat_liar_table_fits_the_screen(new_page: Any, phone: bool) -> None:
    page = new_page(phone=phone)
    bots = ["bot:random", "bot:sensible", "bot:easy", "bot:normal", "bot:random",
            "bot:random", "bot:random"]
    create_table(page, "liar", "Mika", bots, {"multi": True, "jack_back": True,
                                               "eight_cut": True})
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    start(page)
    page.wait_for_selector(".turn.yours")
    assert page.locator("#opponents .seat").count() == 7
    assert page.locator("#hand .card").count() >= 6  # 52 cards dealt round 8 seats (L3)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # Every control of the turn (play, rates, pass, doubt: what is legal) is on show.
    controls = page.locator("#controls button").all()
    assert controls and all(c.is_visible() for c in controls)
    shot(page, "16-liar-eight-seats-" + ("phone" if phone else "desktop"))
