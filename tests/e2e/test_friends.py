"""Two people at one table (invite link, copy button), a spectator, reconnecting."""

from __future__ import annotations

import random
import time
from typing import Any

from e2e_helpers import (
    bluff_turn,
    create_table,
    join_by_link,
    liar_turn,
    see_results,
    shot,
    start,
    state_n,
    wait_after,
)
from playwright.sync_api import expect


def test_two_browsers_play_bluff_at_one_table_with_a_spectator(new_page: Any) -> None:
    host = new_page()
    create_table(host, "bluff", "Alice", ["friend", "bot:random"], {"max_cards": 2})
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    host.click("#copy-invite")
    expect(host.locator("#copy-invite")).to_have_text("Copied!")
    link = host.evaluate("navigator.clipboard.readText()")
    assert "/table.html?invite=" in link
    assert host.locator("#start").count() == 0  # a seat is still empty
    shot(host, "09-invite-waiting")

    friend = new_page(phone=True)
    friend.goto(link)
    friend.wait_for_selector("#join-form")
    assert friend.inner_text("#lobby h1") == "Alice invites you to a game of Bluff"
    join_by_link(friend, link, "Bob")
    host.wait_for_selector("#start")
    assert friend.locator("#start").count() == 0  # the host starts, not the friend
    start(host)
    friend.wait_for_selector("body[data-status=playing], body[data-status=finished]")

    watcher = new_page()
    watcher.goto(host.url)
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#hand .card").count() == 0  # spectators see no hidden card

    rng = random.Random(3)
    deadline = time.monotonic() + 60
    shots = set()
    while host.get_attribute("body", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page, who in ((host, "host"), (friend, "friend")):
            if page.locator(".turn.yours").count() and page.get_attribute(
                    "body", "data-status") == "playing":
                if who not in shots:
                    shot(page, f"10-two-players-{who}" + ("-phone" if who == "friend" else ""))
                    shots.add(who)
                bluff_turn(page, rng, challenge=0.5)
                acted = True
        if not acted:
            time.sleep(0.05)
    friend.wait_for_selector("body[data-status=finished]")
    watcher.wait_for_selector("body[data-status=finished]")
    assert friend.locator("#standings tbody tr").count() == 3
    assert watcher.locator("#standings tbody tr").count() == 3
    assert watcher.locator("#rematch").count() == 0  # a spectator holds no seat
    shot(watcher, "11-spectator-over")

    # A link that leads nowhere is not a dead end.
    watcher.goto("/table.html?invite=no-such-invite")
    watcher.wait_for_selector("#go-home")
    assert watcher.inner_text("#lobby h1") == "This table does not exist."
    shot(watcher, "27-bad-link")

    # A rematch offered from the friend's browser deals a new game to both once the
    # host accepts it too.
    see_results(friend)
    friend.click("#rematch")
    see_results(host)
    expect(host.locator("#rematch")).to_have_text("Accept the rematch")
    host.click("#rematch")
    host.wait_for_selector("body[data-status=playing], .turn.yours")
    assert "Game 2 begins." in host.inner_text("#log")


def test_reload_and_network_loss_return_to_the_same_seat(new_page: Any) -> None:
    page = new_page()
    table = create_table(page, "liar", "Carol", ["bot:random", "bot:random"],
                         {"hand_size": 6, "turn_limit": 200})
    start(page)
    page.wait_for_selector(".turn.yours")
    hand = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    log_lines = page.locator("#log li").count()
    page.reload()
    page.wait_for_selector(".turn.yours")
    assert page.url.endswith(f"t={table}")
    assert page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    assert page.locator("#log li").count() == log_lines  # the same story, told once
    assert page.inner_text(".my-name .name") == "Carol"
    shot(page, "12-after-reload")

    # The network drops and comes back: the page resumes from the last event it saw.
    connects = int(page.get_attribute("body", "data-connects") or 0)
    page.context.set_offline(True)
    page.wait_for_function("document.getElementById('conn').dataset.state === 'table.reconnecting'")
    page.context.set_offline(False)
    page.wait_for_function(f"Number(document.body.dataset.connects) > {connects}")
    assert page.get_attribute("#conn", "data-state") == "table.connected"
    assert page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)") == hand
    before = state_n(page)
    liar_turn(page, random.Random(1), doubt=0.0)
    assert state_n(page) > before
    lines = page.locator("#log li").all_inner_texts()
    assert lines.count("Game 1 begins.") == 1  # nothing replayed twice after the resume
    wait_after(page, before)
