"""Fair deals in the browser: the table page contributes to the deal by itself, and the
replay page checks the finished game's record in the page (static/js/fairness.js) and
shows the mark; a changed record is marked as not following from its commitment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from e2e_helpers import bluff_turn, create_table, play_out, see_results, start


def test_the_page_contributes_and_the_replay_verifies_the_deal(
        new_page: Any, fair_server: Any, tmp_path: Path) -> None:
    page = new_page()
    table = create_table(page, "bluff", "Alice", ["bot:random"], {"max_cards": 1},
                         base=fair_server.url)
    start(page)  # dealt once this page has given its contribution (the bot gives none)
    play_out(page, bluff_turn, challenge=0.5)
    see_results(page)
    record = httpx.get(f"{fair_server.url}/api/tables/{table}/games/0/record").json()
    given = record["fairness"]["contributions"]
    assert [c["seat"] for c in given] == [0] and given[0]["value"] is not None
    page.goto(f"{fair_server.url}/replay.html?t={table}&game=0")
    mark = page.wait_for_selector("#fair-mark[data-state=verified]")
    assert "your contribution" in mark.inner_text()  # this browser's own, checked too

    # A record whose deal was changed: the page itself finds it out.
    hands = record["rounds"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(record), encoding="utf-8")
    page.goto(f"{fair_server.url}/replay.html")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#record-file", str(changed))
    mark = page.wait_for_selector("#fair-mark[data-state=differs]")
    assert "round 0, seat 0" in mark.inner_text()
