"""The API docs page under the site's strict policy, and the table page's reconnect
backoff against a server that closes every socket at once (1008): the page used to
reset its backoff when a socket opened, and reconnected every 0.5 s forever."""

from __future__ import annotations

import time
from typing import Any

import httpx


def test_the_api_docs_render_under_the_strict_policy(new_page: Any) -> None:
    page = new_page()
    page.goto("/docs")
    # Swagger UI built the page from /openapi.json; a blocked script or style would
    # leave it empty, and new_page fails the test on any policy violation it logs.
    page.wait_for_selector("#swagger-ui .opblock-summary-path", timeout=20_000)
    assert page.locator("#swagger-ui .opblock").count() > 5


def test_a_socket_closed_at_once_is_retried_with_a_growing_delay(
        new_page: Any, live_server: Any) -> None:
    table = httpx.post(f"{live_server.url}/api/tables",
                       json={"game": "bluff", "seats": [{"bot": None}] * 2}).json()
    page = new_page()
    # The delays are drawn at random up to a doubling ceiling (full jitter): drawn at 90%
    # of it here, so that the ceiling's growth shows in the gaps.
    page.add_init_script("Math.random = () => 0.9;")
    opened: list[float] = []

    def close_at_once(ws: Any) -> None:
        # The socket opens; at the server's first frame (its welcome), before any reaches
        # the page, the page's side is closed as a server too far behind would close it.
        opened.append(time.monotonic())
        server = ws.connect_to_server()
        server.on_message(lambda _frame: ws.close(code=1008, reason="too far behind"))

    page.route_web_socket("**/ws/tables/**", close_at_once)
    page.goto(f"/table.html?t={table['table_id']}")
    page.wait_for_timeout(6000)  # (the handler runs while Playwright waits)
    # 0.45, 0.9, 1.8 and 3.6 s fit at most 4 retries in 6 s; a backoff reset on open
    # would have made 13.
    assert 2 <= len(opened) <= 5, opened
    gaps = [b - a for a, b in zip(opened, opened[1:], strict=False)]
    assert all(later > earlier for earlier, later in zip(gaps, gaps[1:], strict=False)), gaps
