"""The pages and the session: static/js/api.js gets the CSRF token from ``GET /api/me``
(a guest on the first visit) and sends it with every state-changing call; a session
that ended meanwhile (signed out elsewhere, expired) is refused once, then the page
asks ``/api/me`` again and the call goes through."""

from __future__ import annotations

from typing import Any

from e2e_helpers import create_table

BOTS_ONLY = {"game": "bluff", "seats": [{"bot": None}, {"bot": "random"}]}


def test_a_table_is_made_with_the_sessions_token(new_page: Any) -> None:
    page = new_page()
    with page.expect_request(lambda r: r.url.endswith("/api/tables")
                             and r.method == "POST") as made:
        create_table(page, "bluff", "Mika", ["bot:random"])
    token = made.value.headers.get("x-csrf-token")
    me = page.request.get("/api/me").json()  # the same browser's cookie
    assert token and token == me["csrf"] and me["kind"] == "guest"


def test_a_session_ended_elsewhere_is_renewed_and_the_call_made(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    first = page.evaluate("async () => (await (await import('/js/api.js')).me()).id")
    # The session ends elsewhere: the browser still holds a cookie naming it.
    page.context.clear_cookies()
    page.context.add_cookies([{"name": "usotsuki_session", "value": "an-ended-session",
                               "url": page.url}])
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status)
            if r.url.endswith("/api/tables") else None)
    made = page.evaluate("""async (body) => {
        const { api } = await import('/js/api.js');
        return api('/api/tables', { method: 'POST', body });
    }""", BOTS_ONLY)
    assert made["table_id"]
    assert statuses == [403, 201]  # refused once (csrf), then made under a new session
    again = page.evaluate("async () => (await (await import('/js/api.js')).me()).id")
    assert again != first  # a new guest: the ended session's player is not reached
