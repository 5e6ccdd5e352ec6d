"""Reactions and chat at a table of three people with a spectator: reactions appear at the
reacting seat, lines in everyone's chat (markup and links as plain text), a muted
player's lines disappear for the one who muted, a spectator's line stays among the
spectators, and the host's switches (chat off; hints before the start)."""

from __future__ import annotations

from typing import Any

from e2e_helpers import create_table, join_by_link, shot, start
from playwright.sync_api import expect

from usotsuki.server import chat_store

XSS = '<img src=x onerror="document.body.dataset.hacked=1"> https://example.com/x'
CARA = "Cara<img src=x onerror=alert(1)>"  # a name is text too (32 characters at most)


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def _lines(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#chat-log .chat-text").all_inner_texts()]


def test_reactions_chat_mute_spectators_and_the_hosts_switches(new_page: Any,
                                                              live_server: Any) -> None:
    host = new_page(size=(1366, 768))
    create_table(host, "bluff", "Alice", ["friend", "friend"], {"max_cards": 2})
    link = host.input_value("#invite-link")
    bob, cara = new_page(size=(1366, 768)), new_page(size=(1366, 768))
    join_by_link(bob, link, "Bob")
    join_by_link(cara, link, CARA)

    # the host's hints switch, before the start: told to everyone
    expect(host.locator("#host-options")).to_be_visible()
    assert bob.locator("#host-options").is_hidden()  # only the host has the switches
    host.uncheck("#option-hints")
    bob.wait_for_function("() => [...document.querySelectorAll('#log li')]"
                          ".some(li => li.textContent.includes('hints off'))")
    start(host)
    for page in (bob, cara):
        page.wait_for_selector("body[data-status=playing]")
    expect(host.locator("#option-hints")).to_be_disabled()  # hints: before the start only

    watcher = new_page(size=(1366, 768))
    dialogs: list[str] = []  # an alert would be a script run from a name or a line
    for page in (host, bob, cara, watcher):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    watcher.goto(host.url)
    watcher.wait_for_selector("#spectating")
    assert watcher.locator("#reactions").is_hidden()  # spectators do not react

    # a reaction shows at the reacting seat: Bob is seat 1 on everyone's table
    bob.click("#react-nice_bluff")
    for page in (host, cara, watcher):
        expect(page.locator("#seat-1 .bubble.reaction")).to_contain_text("Nice bluff!")
        assert page.locator("#seat-2 .bubble.reaction").count() == 0
    expect(bob.locator(".my-name .bubble.reaction")).to_contain_text("Nice bluff!")

    # a line reaches everyone, as typed: no markup made of it, no link
    _say(bob, XSS)
    for page in (host, bob, cara, watcher):
        expect(page.locator("#chat-log .chat-text").last).to_have_text(XSS)
        assert page.locator("#chat-log img, #chat-log a").count() == 0
        assert page.get_attribute("body", "data-hacked") is None
    _say(cara, "hello from Cara")
    expect(host.locator("#chat-log .chat-line").last).to_contain_text(f"{CARA}: hello from Cara")
    assert host.locator("#chat-log img, #opponents img").count() == 0
    shot(host, "30-chat-at-the-table")

    # Cara reports Bob's line: kept for the moderators with the lines around it
    cara.locator("#chat-log .chat-line[data-seat='1'] .report").first.click()
    expect(cara.locator("#notice")).to_have_text("Reported: the moderators will look at it.")
    store = live_server.app.state.store
    [kept] = [r for r in chat_store.reports(store.engine) if r["text"] == XSS]
    assert [m["text"] for m in kept["context"]["messages"]] == [XSS, "hello from Cara"]

    # a spectator's line stays among the spectators
    _say(watcher, "go Cara!")
    expect(watcher.locator("#chat-log .chat-line.spectators")).to_contain_text("go Cara!")
    _say(cara, "after the spectator")
    expect(host.locator("#chat-log .chat-text").last).to_have_text("after the spectator")
    for page in (host, bob, cara):
        assert "go Cara!" not in _lines(page)

    # Alice mutes Bob: his lines disappear for her, and his reactions; Cara still hears him
    host.locator("#chat-log .chat-line[data-seat='1'] .mute").first.click()
    expect(host.locator("#muted-list li")).to_contain_text("Bob")
    assert XSS not in _lines(host)
    _say(bob, "can you hear me?")
    expect(cara.locator("#chat-log .chat-text").last).to_have_text("can you hear me?")
    bob.click("#react-laugh")
    expect(cara.locator("#seat-1 .bubble.reaction")).to_contain_text("Ha ha!")
    _say(cara, "Bob said something")
    expect(host.locator("#chat-log .chat-text").last).to_have_text("Bob said something")
    assert "can you hear me?" not in _lines(host)
    assert host.locator("#seat-1 .bubble.reaction[data-reaction=laugh]").count() == 0
    host.reload()  # nor in the history a new socket is sent
    host.wait_for_selector("body[data-status=playing]")
    expect(host.locator("#chat-log .chat-text").last).to_have_text("Bob said something")
    assert "can you hear me?" not in _lines(host) and "hello from Cara" in _lines(host)

    # the host turns the chat off: nobody can write, reactions remain
    host.uncheck("#option-chat")
    expect(bob.locator("#chat-off")).to_be_visible()
    expect(bob.locator("#chat-form")).to_be_hidden()
    expect(host.locator("#chat-form")).to_be_hidden()
    shot(bob, "31-chat-off")
    assert dialogs == []


def test_chat_in_japanese_on_a_phone(new_page: Any) -> None:
    host = new_page(locale="ja-JP", phone=True)
    create_table(host, "bluff", "アリス", ["bot:random"], {"max_cards": 2})
    start(host)
    host.click("#log-toggle")
    expect(host.locator("#chat-heading")).to_have_text("チャット")
    expect(host.locator("#react-nice_bluff")).to_have_attribute("aria-label", "ナイスブラフ！")
    _say(host, "よろしく <b>お願いします</b>")
    expect(host.locator("#chat-log .chat-text").last).to_have_text("よろしく <b>お願いします</b>")
    host.click("#react-really")
    shot(host, "32-chat-phone-ja")
