"""Tables people control, in the browser: a resign hands the seat to a bot (told to the
other player); a rematch is an offer that starts only once every person accepted; the host
removes a seat before the start; a table whose host turned hints off shows no hint."""

from __future__ import annotations

import random
import time
from typing import Any

from e2e_helpers import bluff_turn, create_table, join_by_link, see_results, shot, start
from playwright.sync_api import expect


def _invite(page: Any) -> str:
    return str(page.input_value("#invite-link"))


def _resign(page: Any) -> None:
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#resign")).to_have_count(0)
    # a bot plays the seat now (unless it ended the game at once)
    page.wait_for_selector("#bot-for-you, body[data-status=finished]")


def test_a_resign_hands_the_seat_to_a_bot_and_a_rematch_needs_every_accept(
        new_page: Any) -> None:
    host = new_page(size=(1366, 768))
    create_table(host, "bluff", "Alice", ["friend", "bot:random"], {"max_cards": 2})
    friend = new_page(locale="ja-JP", phone=True)  # Japanese, on a phone
    join_by_link(friend, _invite(host), "Bob")
    start(host)
    friend.wait_for_selector("body[data-status=playing], body[data-status=finished]")

    _resign(host)
    # the other player is told, and the host's seat is played by a bot from now on
    expect(friend.locator("#log")).to_contain_text("Aliceが投了しました。")
    expect(friend.locator("#log")).to_contain_text("ボット")
    shot(host, "30-control-resigned")
    if friend.get_attribute("body", "data-status") == "playing":
        _resign(friend)
    for page in (host, friend):
        page.wait_for_selector("body[data-status=finished]", timeout=60_000)
        see_results(page)

    # Alice offers; the game does not start until Bob accepts too.
    host.click("#rematch")
    expect(host.locator("#rematch-offer")).to_contain_text("Waiting for Bob")
    expect(host.locator("#offer-clock")).to_contain_text(" s left")
    assert host.locator("#rematch").count() == 0  # accepted already: only Decline
    expect(friend.locator("#rematch-offer")).to_contain_text("Aliceが再戦を申し込みました")
    expect(friend.locator("#rematch")).to_have_text("再戦を受ける")
    shot(friend, "31-control-rematch-offer-phone")
    assert host.get_attribute("body", "data-status") == "finished"
    friend.click("#rematch")
    for page in (host, friend):
        page.wait_for_selector("body[data-status=playing]")
    # the seats are the people's again: each holds a hand and may resign
    for page in (host, friend):
        page.wait_for_selector("#hand .card")
        page.wait_for_selector("#resign")
    expect(host.locator("#log")).to_contain_text("Alice offers a rematch.")


def test_a_declined_offer_is_gone_and_a_leaver_is_not_asked(new_page: Any) -> None:
    host = new_page()
    create_table(host, "bluff", "Chie", ["friend", "bot:random"], {"max_cards": 2})
    friend = new_page()
    join_by_link(friend, _invite(host), "Dai")
    start(host)
    for page in (host, friend):
        page.wait_for_selector("#resign")
        _resign(page)
    for page in (host, friend):
        page.wait_for_selector("body[data-status=finished]", timeout=60_000)
        see_results(page)
    friend.click("#rematch")
    host.wait_for_selector("#rematch-decline")
    host.click("#rematch-decline")
    expect(friend.locator("#log")).to_contain_text("Chie declines the rematch.")
    friend.wait_for_selector("#rematch-offer", state="detached")
    expect(friend.locator("#rematch")).to_have_text("Rematch")  # may offer again
    # Dai leaves: told to Chie; Dai's page watches, with nothing to answer any more.
    friend.click("#leave")
    friend.click("#leave-confirm")
    expect(host.locator("#log")).to_contain_text("Dai left the table. A bot plays the seat on.")
    expect(friend.locator("#rematch")).to_have_count(0)
    expect(friend.locator("#leave")).to_have_count(0)
    # Chie is the only person now: her acceptance starts the game (the bots accept)
    expect(host.locator("#rematch")).to_have_text("Play again with the same bots")
    host.click("#rematch")
    host.wait_for_selector("body[data-status=playing]")


def test_the_host_removes_a_seat_before_the_start(new_page: Any) -> None:
    host = new_page()
    create_table(host, "liar", "Eri", ["friend", "friend"])
    friend = new_page()
    link = _invite(host)
    join_by_link(friend, link, "Fumi")
    host.wait_for_selector("#remove-seat-1")
    assert host.locator("#remove-seat-0").count() == 0  # not the host's own seat
    shot(host, "32-control-host-seats")
    host.click("#remove-seat-1")
    expect(friend.locator("#notice")).to_contain_text("You no longer hold a seat")
    friend.wait_for_selector("#join-form")  # free again: anyone with the link may sit
    expect(host.locator("#log")).to_contain_text("The host removed")


def test_hints_off_by_the_host_show_no_hint(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.evaluate("localStorage.setItem('usotsuki.hints', 'on')")  # asked for, refused
    create_table(page, "bluff", "Gin", ["bot:random"], {"max_cards": 2, "hints": False})
    rng = random.Random(5)
    deadline = time.monotonic() + 60
    while not page.locator("#challenge").count():  # a claim to judge, at last
        assert time.monotonic() < deadline, "no claim to judge came"
        assert page.get_attribute("body", "data-status") != "finished", "nothing to judge"
        if page.locator(".turn.yours").count() and not page.locator("#challenge").count():
            bluff_turn(page, rng, challenge=0.0)
        else:
            time.sleep(0.05)
    assert page.locator("#hint-toggle").count() == 0
    assert page.locator(".hint-box").count() == 0
