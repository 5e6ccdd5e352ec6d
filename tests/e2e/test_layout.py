"""Phone and desktop layouts: nothing wider than the screen, the table readable, eight
seats round the felt and still nothing to scroll on your turn."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import assert_can_act, create_table, shot, start

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"
# A bot's call shows in a bubble at its seat for 2.6 s: a long call at an edge seat once made the
# phone's page wider, seen only when a check fell in those seconds. So every seat gets the longest
# calls of both languages in turn, and each must show whole, the page no wider than the screen.
LONG_BUBBLES = """(texts) => {
  const fits = [];
  for (const seat of document.querySelectorAll("#opponents .seat")) {
    for (const text of texts) {
      const bubble = document.createElement("div");
      bubble.className = "bubble";
      bubble.textContent = text;
      seat.appendChild(bubble);
      const box = bubble.getBoundingClientRect();  // on the screen, cut off at neither edge
      fits.push(box.left >= 0 && box.right <= window.innerWidth
                && document.documentElement.scrollWidth <= window.innerWidth);
      bubble.remove();
    }
  }
  return fits; }"""
LONGEST_CALLS = ["♣ straight flush to the queen", "full house, queens over jacks",
                 "♦のQまでのストレートフラッシュ"]
BOTS = ["bot:random", "bot:sensible", "bot:easy", "bot:normal", "bot:random", "bot:random",
        "bot:random"]


@pytest.mark.parametrize(("game", "phone", "size"),
                         [("liar", True, (390, 844)), ("liar", False, (1280, 720)),
                          ("bluff", True, (390, 844)), ("bluff", False, (768, 1024))],
                         ids=["liar-phone", "liar-1280x720", "bluff-phone", "bluff-768x1024"])
def test_eight_seat_table_fits_the_screen(new_page: Any, game: str, phone: bool,
                                          size: tuple[int, int]) -> None:
    page = new_page(phone=phone, size=size)
    bots = BOTS if game == "liar" else [b if b != "bot:sensible" else "bot:random" for b in BOTS]
    options = {"multi": True, "jack_back": True, "eight_cut": True} if game == "liar" else {}
    create_table(page, game, "Mika", bots, options)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    start(page)
    page.wait_for_selector(".turn.yours")
    fits = page.evaluate(LONG_BUBBLES, LONGEST_CALLS)
    assert len(fits) == 7 * len(LONGEST_CALLS) and all(fits), fits
    assert page.locator("#opponents .seat").count() == 7
    if game == "liar":
        assert page.locator("#hand .card").count() >= 6  # 52 cards dealt round 8 seats (L3)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert_can_act(page)
    # Every control of the turn (what is legal) is on show.
    controls = page.locator("#controls button").all()
    assert controls and all(c.is_visible() for c in controls)
    shot(page, f"16-{game}-eight-seats-" + ("phone" if phone else "{}x{}".format(*size)))
