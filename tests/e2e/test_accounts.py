"""Identity in the browser: the name chip on every page, the account page (sign up, log
in and out, out everywhere, download, delete, every refusal said), the rated switch."""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

from e2e_helpers import axe_check, bluff_turn, create_table, play_out, see_results, shot
from playwright.sync_api import expect

PASSWORD = "correct horse battery"
_serial = itertools.count()


def unique(name: str) -> str:
    """An account name no other test of this server session has taken."""
    return f"{name}{next(_serial)}"


def me(page: Any) -> dict[str, Any]:
    answer: dict[str, Any] = page.request.get("/api/me").json()
    return answer


def open_account(page: Any) -> None:
    page.goto("/account")
    page.wait_for_selector("body[data-ready='1'][data-kind]")


def sign_up(page: Any, username: str, password: str = PASSWORD) -> None:
    open_account(page)
    page.fill("#signup-username", username)
    page.fill("#signup-password", password)
    page.click("#signup")
    page.wait_for_selector("body[data-kind=account]")


def log_in(page: Any, username: str, password: str = PASSWORD) -> None:
    page.fill("#login-username", username)
    page.fill("#login-password", password)
    page.click("#login")


def rename_by_chip(page: Any, name: str) -> None:
    page.click("#name-chip")
    page.fill("#chip-name-input", name)
    page.click("#chip-save")
    expect(page.locator("#name-chip .chip-name")).to_have_text(name)


def test_a_first_visit_has_a_name_it_can_change_on_every_page(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    first = me(page)
    assert first["kind"] == "guest"
    expect(page.locator("#name-chip .chip-name")).to_have_text("Guest")  # until it chooses
    assert page.input_value("#name") == ""  # the table form asks for one, as the chip does
    page.click("#name-chip")
    expect(page.locator("#name-dialog")).to_be_visible()
    assert "You" in page.inner_text("#name-dialog")  # your own seat reads "You"
    page.fill("#chip-name-input", "Mika")
    shot(page, "29-name-chip-dialog")
    page.click("#chip-save")
    expect(page.locator("#name-chip .chip-name")).to_have_text("Mika")
    expect(page.locator("#name-dialog")).to_be_hidden()
    assert me(page) == {**first, "name": "Mika"}  # the same guest, renamed
    assert page.input_value("#name") == "Mika"
    for path in ("/rules.html", "/replay.html", "/account", f"/players/{first['id']}"):
        page.goto(path)
        expect(page.locator("#name-chip .chip-name")).to_have_text("Mika")
    assert me(page)["id"] == first["id"]  # one guest however many pages asked

    # A refused name is said beside it; the dialog stays open.
    page.click("#name-chip")
    page.fill("#chip-name-input", "Kenji (hard)")  # a bot's name
    page.click("#chip-save")
    expect(page.locator("#chip-error")).to_contain_text("cannot be used")
    page.keyboard.press("Escape")
    expect(page.locator("#name-chip .chip-name")).to_have_text("Mika")


def test_a_guest_plays_signs_up_and_finds_the_game_on_its_profile(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    guest = me(page)
    table = create_table(page, "bluff", "Noriko", ["bot:random", "bot:random"], {"max_cards": 1})
    play_out(page, bluff_turn, challenge=0.5)
    see_results(page)
    expect(page.locator("#name-chip .chip-name")).to_have_text("Noriko")

    open_account(page)
    assert page.locator("#login-form").count() == 1
    assert "kept" in page.inner_text("#signup-form")  # the device's games stay yours
    shot(page, "29-account-guest")
    username = unique("Noriko")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    page.wait_for_selector("body[data-kind=account]")
    expect(page.locator("#account-status")).to_contain_text(f"Welcome, {username}")
    expect(page.locator("#name-chip .chip-name")).to_have_text(username)
    shot(page, "29-account-signed-in")
    account = me(page)
    assert account["id"] == guest["id"] and account["kind"] == "account"

    mine = page.request.get("/api/me/games").json()
    assert [g["table_id"] for g in mine["games"]] == [table]
    page.click("#profile-link")
    page.wait_for_url(f"**/players/{account['id']}")
    game = page.locator(f"#games a[href*='{table}']").first
    expect(game).to_be_visible()
    shot(page, "29-profile-after-sign-up")


def test_the_account_page_says_every_refusal(new_page: Any) -> None:
    owner = new_page()
    taken = unique("Sachiko")
    sign_up(owner, taken)

    page = new_page()
    open_account(page)
    # A taken name is said (names are public at the tables anyway).
    page.fill("#signup-username", taken.upper())
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    expect(page.locator("#account-error")).to_have_text("This username is taken: choose another.")
    page.fill("#signup-username", unique("Short"))
    page.fill("#signup-password", "abc")
    page.click("#signup")
    expect(page.locator("#account-error")).to_have_text("A password has at least 8 characters.")

    # A wrong password and an unknown account read alike.
    log_in(page, taken, "not the password")
    expect(page.locator("#account-error")).to_have_text("Wrong username or password.")
    wrong = page.inner_text("#account-error")
    page.evaluate("document.getElementById('account-error').textContent = ''")
    log_in(page, unique("Nobody"), "not the password")
    expect(page.locator("#account-error")).to_have_text(wrong)
    shot(page, "29-account-refused")

    # Past the account's limit of failures even the right password waits.
    csrf = me(page)["csrf"]
    for _ in range(10):
        page.request.post("/api/account/login", headers={"X-CSRF-Token": csrf},
                          data={"username": taken, "password": "guess"})
    log_in(page, taken)
    expect(page.locator("#account-error")).to_contain_text("Too many attempts: try again in")
    assert page.get_attribute("body", "data-kind") == "guest"


def test_log_out_everywhere_download_and_delete(new_page: Any, tmp_path: Any) -> None:
    here = new_page()
    username = unique("Haruto")
    sign_up(here, username)
    there = new_page(phone=True)
    open_account(there)
    log_in(there, username)
    there.wait_for_selector("body[data-kind=account]")
    expect(there.locator("#account-status")).to_have_text(f"Logged in as {username}.")
    assert me(there)["id"] == me(here)["id"]

    # Your data, as a file.
    with here.expect_download() as download:
        here.click("#export-link")
    saved = tmp_path / "export.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text("utf-8"))
    assert username in json.dumps(data, ensure_ascii=False)

    # Log out here: a guest again; the other device is still signed in.
    here.click("#logout")
    here.wait_for_selector("body[data-kind=guest]")
    expect(here.locator("#account-status")).to_have_text("Logged out: you play as a guest again.")
    assert me(there)["kind"] == "account"
    log_in(here, username)
    here.wait_for_selector("body[data-kind=account]")

    # Log out everywhere: both devices are guests.
    there.click("#logout-all")
    there.wait_for_selector("body[data-kind=guest]")
    assert me(here)["kind"] == "guest"

    # Delete: a wrong password is refused as such; the right one deletes.
    log_in(there, username)
    there.wait_for_selector("body[data-kind=account]")
    account_id = me(there)["id"]
    there.fill("#delete-password", "not the password")
    there.click("#delete")
    expect(there.locator("#account-error")).to_have_text("Wrong password.")
    shot(there, "29-account-phone")
    there.fill("#delete-password", PASSWORD)
    there.click("#delete")
    there.wait_for_selector("body[data-kind=guest]")
    expect(there.locator("#account-status")).to_contain_text("anonymised")
    assert me(there)["id"] != account_id
    open_account(here)
    log_in(here, username)
    expect(here.locator("#account-error")).to_have_text("Wrong username or password.")


def test_the_account_page_in_japanese_and_on_a_phone_is_accessible(new_page: Any) -> None:
    page = new_page(locale="ja-JP", phone=True)
    open_account(page)
    assert page.inner_text("h1") == "アカウント"
    expect(page.locator("#signup")).to_have_text("登録する")
    axe_check(page)
    sign_up(page, unique("ゆきこ"))
    expect(page.locator("#account-status")).to_contain_text("ようこそ")
    shot(page, "29-account-ja-phone")
    page.click("#name-chip")
    expect(page.locator("#name-dialog h2")).to_have_text("あなたの名前")
    axe_check(page)


def test_the_rated_switch_is_for_accounts_and_shows_what_it_means(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#rated")).to_be_disabled()
    expect(page.locator("#rated-guest")).to_be_visible()
    expect(page.locator("#rated-signup")).to_have_attribute("href", "/account")
    shot(page, "29-rated-guest")

    sign_up(page, unique("Ren"))
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#rated-guest")).to_be_hidden()
    expect(page.locator("#clock-field")).to_be_hidden()  # bots only: no clock
    page.locator("#turn-seconds").evaluate("s => { s.value = 'off'; }")  # as left before
    page.check("#rated")
    expect(page.locator("#rated-terms")).to_be_visible()
    assert page.inner_text("#rated-terms").split("\n") == [
        "Hints: off", "Turn clock: on", "Leaving: last place"]
    expect(page.locator("#clock-field")).to_be_visible()  # a rated table has a clock
    assert page.input_value("#turn-seconds") != "off"
    assert page.locator("#turn-seconds option[value=off]").is_disabled()
    shot(page, "29-rated-on")
    page.uncheck("#rated")
    expect(page.locator("#rated-terms")).to_be_hidden()
    assert not page.locator("#turn-seconds option[value=off]").is_disabled()


def rating(page: Any, game: str) -> dict[str, Any] | None:
    profile = page.request.get(f"/api/players/{me(page)['id']}").json()
    found: dict[str, Any] | None = profile["games"].get(game, {}).get("rating")
    return found


def test_two_accounts_play_a_rated_game_and_both_ratings_move(new_page: Any) -> None:
    """A rated Bluff game of two new accounts with a 30 s clock, one round (out at the
    first loss): the winner's rating rises and the loser's falls by what the model gives
    two new players (docs/ratings.md), each provisional after one game."""
    from usotsuki.server.ratings import NEW, update_ratings

    host = new_page(size=(1366, 768))
    sign_up(host, unique("Aki"))
    friend = new_page(phone=True)
    friend.goto("/")  # a guest first: the invite says why it cannot sit
    create_table(host, "bluff", me(host)["name"], ["friend"],
                 {"rated": True, "turn_seconds": 30, "max_cards": 1})
    expect(host.locator("#rated-rule")).to_be_visible()
    link = host.input_value("#invite-link")
    friend.goto(link)
    friend.wait_for_selector("#join-form")
    expect(friend.locator("#join-form .rated-guest a")).to_have_attribute("href", "/account")
    friend.fill("#join-name", "Sho")
    friend.click("#join")
    expect(friend.locator("#notice")).to_contain_text("Rated tables are for accounts")
    shot(friend, "29-rated-guest-refused-phone")
    sign_up(friend, unique("Sho"))
    friend.goto(link)
    friend.wait_for_selector("#join-form")
    expect(friend.locator("#join-form .rated-guest")).to_be_hidden()  # an account: no prompt
    friend.click("#join")
    friend.wait_for_selector("#lobby-seats .badge.you")
    host.wait_for_selector("#start")
    host.click("#start")
    assert rating(host, "bluff") is None and rating(friend, "bluff") is None

    rng = random.Random(7)
    deadline = time.monotonic() + 120
    while host.get_attribute("body", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in (host, friend):
            if page.locator(".turn.yours").count() and page.get_attribute(
                    "body", "data-status") == "playing":
                assert page.locator("#hint-toggle").count() == 0  # hints off when rated
                bluff_turn(page, rng, challenge=0.5)
                acted = True
        if not acted:
            host.wait_for_timeout(50)
    friend.wait_for_selector("body[data-status=finished]")
    see_results(host)
    shot(host, "29-rated-game-over")

    first, second = update_ratings([NEW, NEW], [1, 2])
    [played] = host.request.get("/api/me/games").json()["games"]
    assert played["rated"] and played["rating"]["before"] == 1500
    winner, loser = (host, friend) if played["place"] == 1 else (friend, host)
    up, down = rating(winner, "bluff"), rating(loser, "bluff")
    assert up == {"shown": round(first.shown), "games": 1, "provisional": True}
    assert down == {"shown": round(second.shown), "games": 1, "provisional": True}
    assert up["shown"] > 1500 > down["shown"]
    assert up["shown"] - 1500 == 1500 - down["shown"]  # two new players: a mirror image
    gain = up["shown"] - 1500  # and each reads its change under the standings
    see_results(friend)
    expect(winner.locator("#rating-change")).to_have_text(
        f"Your rating: 1500 → {up['shown']} (+{gain})")
    expect(loser.locator("#rating-change")).to_have_text(
        f"Your rating: 1500 → {down['shown']} (-{gain})")
