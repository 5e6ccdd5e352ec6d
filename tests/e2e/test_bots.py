"""Whole games against bots through the UI: create a table, play to the end, standings,
then the record and the replay viewer."""

from __future__ import annotations

import json
from typing import Any

from e2e_helpers import (
    assert_can_act,
    bluff_turn,
    create_table,
    liar_turn,
    play_out,
    see_results,
    shot,
    start,
)


def test_bluff_whole_game_against_bots_then_replay(new_page: Any, tmp_path: Any) -> None:
    page = new_page(size=(1366, 768))
    create_table(page, "bluff", "Alice", ["bot:random", "bot:cautious"],
                 {"max_cards": 2, "ranks": 6})
    start(page)  # you and bots only: it has started by itself
    page.wait_for_selector(".turn.yours, body[data-status=finished]")
    shot(page, "03-bluff-your-turn")
    moves = play_out(page, bluff_turn, challenge=0.5, check=assert_can_act)
    assert moves >= 1
    assert page.locator("#standings tbody tr").count() == 3
    assert page.locator("#reveal .reveal-hand").count() >= 2  # the last challenge, face up
    assert page.locator("#results").is_hidden()  # the reveal first, then the results
    see_results(page)
    shot(page, "05-bluff-game-over")

    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / "record.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["game"] == "bluff" and record["players"][0] == "Alice"
    assert record["rules"]["ranks"] == 6  # B13: only 9 to A were dealt
    assert all(card[0] in "9TJQKA" for r in record["rounds"] for h in r["hands"] for card in h)

    page.click("#replay")
    page.wait_for_selector("#viewer:not([hidden])")
    total = sum(1 + len(r["actions"]) for r in record["rounds"])  # a deal, then each action
    assert page.inner_text("#step") == f"Step 1 / {total}"
    assert page.locator(".replay-hand").count() == 3
    assert page.locator(".replay-hand .card").count() == 3  # round 1: one card each (B3)
    page.keyboard.press("End")
    assert page.inner_text("#step") == f"Step {total} / {total}"
    assert page.locator("#replay-standings li").count() == 3
    assert page.locator("#replay-reveal").count() == 1  # the final challenge
    shot(page, "07-replay-bluff-end")
    page.click("#first")
    page.click("#forward")
    assert page.inner_text("#step") == f"Step 2 / {total}"
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step") == f"Step 1 / {total}"
    page.locator("#jump").fill(str(total // 2))
    assert page.inner_text("#step") == f"Step {total // 2 + 1} / {total}"

    # The downloaded record replays the same in the viewer's file picker.
    page.goto("/replay.html")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.inner_text("#step") == f"Step 1 / {total}"


def test_liar_match_against_bots(new_page: Any) -> None:
    page = new_page(size=(1280, 720))
    create_table(page, "liar", "Alice", ["bot:random", "bot:sensible"],
                 {"multi": True, "revolution": True, "eight_cut": True, "jack_back": True,
                  "binding": True, "classes": True, "games": 2, "hand_size": 4,
                  "turn_limit": 40})
    start(page)
    page.wait_for_selector(".turn.yours, body[data-status=finished]")
    assert page.locator("#order").count() == 1
    shot(page, "04-liar-your-turn")
    moves = play_out(page, liar_turn, doubt=0.3, check=assert_can_act)
    assert moves >= 1
    assert page.locator("#standings tbody tr").count() >= 1
    assert page.locator("#match-table tbody tr").count() == 3  # the match, game by game
    see_results(page)
    shot(page, "06-liar-game-over")
    assert page.locator("#order").count() == 1  # the order in force stays on show
    page.click("#replay")
    page.wait_for_selector("#viewer:not([hidden])")
    page.keyboard.press("End")
    assert page.locator(".replay-hand").count() == 3
    shot(page, "08-replay-liar-end")


def test_liar_class_exchange_selects_cards_to_give(new_page: Any, own_server: Any) -> None:
    """O7: the winner of a game chooses, in the hand, the cards to give back."""
    # The deals follow from the table's (random) id (docs/fairness.md), so whether the
    # person wins a game before the last is luck: a new match until it does.
    for _ in range(8):
        page = new_page()
        create_table(page, "liar", "Alice", ["bot:random"],
                     {"multi": True, "classes": True, "games": 4, "hand_size": 3,
                      "turn_limit": 30}, base=own_server.url)
        start(page)
        seen: set[str] = set()
        play_out(page, liar_turn, seen=seen, doubt=0.3)
        if "give" in seen:
            break
    assert "give" in seen
    assert "play" in seen and "pass" in seen
    log = page.inner_text("#log")
    assert "You give 1 card to Kenji (random)." in log  # O7, said in the second person
    assert page.locator("#standings tbody tr").count() == 2
