"""The account page's bot section: mark the account a bot (refused for one that has
played), make a token (its secret shown once), use it, revoke it; in both languages."""

from __future__ import annotations

from typing import Any

from e2e_helpers import shot
from playwright.sync_api import expect
from test_accounts import me, sign_up, unique


def test_a_bot_account_makes_uses_and_revokes_a_token(new_page: Any) -> None:
    page = new_page(size=(1366, 900))
    name = unique("Robo")
    sign_up(page, name)
    expect(page.locator("#mark-bot")).to_be_disabled()  # until the box is ticked
    page.check("#bot-sure")
    page.click("#mark-bot")
    expect(page.locator("#bot-note")).to_be_visible()
    assert me(page)["bot"] is True
    expect(page.locator("#no-tokens")).to_be_visible()
    page.fill("#token-label", "laptop")
    page.check("#scope-challenge")
    page.click("#make-token")
    secret = page.locator("#token-value").input_value()
    assert secret.startswith("usb_")
    expect(page.locator("#tokens tbody tr")).to_have_count(1)
    shot(page, "60-bot-tokens")
    answer = page.request.get("/api/bot/me", headers={"Authorization": f"Bearer {secret}"})
    assert answer.status == 200 and answer.json()["scopes"] == ["challenge", "play"]

    page.reload()  # shown once: never again
    page.wait_for_selector("#tokens tbody tr")
    expect(page.locator("#token-secret")).to_have_count(0)
    assert secret not in page.content()
    page.click("#lang-switch")
    expect(page.locator("#tokens-heading")).to_have_text("API トークン")
    page.click("#tokens button.revoke")
    expect(page.locator("#no-tokens")).to_be_visible()
    refused = page.request.get("/api/bot/me", headers={"Authorization": f"Bearer {secret}"})
    assert refused.status == 401


def test_an_account_that_played_cannot_become_a_bot(new_page: Any) -> None:
    page = new_page(size=(1366, 900))
    sign_up(page, unique("Mika"))
    table = page.request.post("/api/tables", data={
        "game": "bluff", "seats": [{"bot": None}, {"bot": "random"}], "rules": {}},
        headers={"X-CSRF-Token": me(page)["csrf"]}).json()
    joined = page.request.post(f"/api/invites/{table['invite']}/join", data={"name": "Mika"},
                               headers={"X-CSRF-Token": me(page)["csrf"]})
    assert joined.ok
    page.reload()
    page.wait_for_selector("#bot-sure")
    page.check("#bot-sure")
    page.click("#mark-bot")
    expect(page.locator("#account-error")).to_contain_text("played as a person")
    assert me(page)["bot"] is False
