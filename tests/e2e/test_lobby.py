"""The lobby in the browser: a stranger sees an open public table and joins it in one
click, a third person watches the game from the live list and the players see them
counted; in Japanese on a phone and in English at 1366x768, axe-clean; names shown as
text, never as markup."""

from __future__ import annotations

from typing import Any

from e2e_helpers import english_left, shot
from playwright.sync_api import expect

NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth + 1"


def _open_table(page: Any, name: str, players: str) -> str:
    """Open a public Bluff table from the lobby's form; its id."""
    page.goto("/lobby")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#lobby-name", name)
    page.select_option("#create-game", "bluff")
    page.select_option("#create-players", players)
    page.select_option("#create-clock", "off")
    page.click("#create-public")
    page.wait_for_url("**/table.html?t=*")
    page.wait_for_selector("#lobby-seats .badge.you")
    return str(page.evaluate("new URLSearchParams(location.search).get('t')"))


def test_a_stranger_joins_from_the_lobby_and_a_watcher_is_counted(new_page: Any) -> None:
    host = new_page(size=(1366, 768))
    table_id = _open_table(host, "あいこ", "2")

    stranger = new_page(locale="ja-JP", phone=True)
    stranger.goto("/lobby")
    listing = stranger.locator(f"#open-list li[data-table='{table_id}']")
    expect(listing).to_be_visible()
    expect(listing).to_contain_text("あいこ")
    expect(listing).to_contain_text("1/2")
    expect(listing).to_contain_text("標準ルール")
    assert english_left(stranger, f"#open-list li[data-table='{table_id}']") == []
    assert stranger.evaluate(NO_SIDEWAYS)
    shot(stranger, "30-lobby-open-phone-ja")
    stranger.fill("#lobby-name", "けん")
    stranger.click(f"#join-{table_id}")  # one click: no invite, no form
    stranger.wait_for_url(f"**/table.html?t={table_id}")
    stranger.wait_for_selector("#lobby-seats .badge.you")

    host.wait_for_selector("#start")
    host.click("#start")
    host.wait_for_selector("body[data-status=playing]")
    expect(stranger.locator(f"#open-list li[data-table='{table_id}']")).to_have_count(0)

    watcher = new_page(size=(1366, 768))
    watcher.goto("/lobby")
    live = watcher.locator(f"#live-list li[data-table='{table_id}']")
    expect(live).to_be_visible()
    expect(live.locator(".watchers")).to_have_text("0 watching")
    assert watcher.evaluate(NO_SIDEWAYS)
    shot(watcher, "31-lobby-live-1366")
    live.locator("a.watch").click()
    watcher.wait_for_url(f"**/table.html?t={table_id}")
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#hand .card").count() == 0  # spectators see no hidden card

    expect(host.locator("#watchers .watchers-long")).to_have_text("1 watching")
    expect(stranger.locator("#watchers .watchers-long")).to_have_text("1人が観戦中")
    expect(stranger.locator("#watchers .watchers-short")).to_have_text("観戦1")  # (a phone)
    assert stranger.evaluate(NO_SIDEWAYS)
    shot(stranger, "34-table-watched-phone-ja")
    shot(host, "32-table-watched-1366")
    # the lobby's list follows by itself (the live feed): the watcher is counted there
    lobby = new_page()
    lobby.goto("/lobby")
    expect(lobby.locator(f"#live-list li[data-table='{table_id}'] .watchers")).to_have_text(
        "1 watching")
    watcher.close()
    expect(lobby.locator(f"#live-list li[data-table='{table_id}'] .watchers")).to_have_text(
        "0 watching")
    expect(host.locator("#watchers")).to_be_hidden()


def test_names_and_rules_in_the_lobby_are_text_never_markup(new_page: Any) -> None:
    host = new_page()
    markup = "<img src=x onerror=alert(1)>"
    table_id = _open_table(host, markup, "3")
    page = new_page(phone=True)
    page.goto("/lobby")
    listing = page.locator(f"#open-list li[data-table='{table_id}']")
    expect(listing).to_contain_text(markup)
    assert listing.locator("img").count() == 0
    shot(page, "33-lobby-phone-en")
