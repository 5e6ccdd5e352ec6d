"""The page against a server that answers ``unavailable`` (PROTOCOL.md, Errors): the
table's creation refused with HTTP 503 and an action refused (and an action made but its
answer replaced by ``unavailable``) are retried after the server's hint, with the same
key; the player is told plainly meanwhile, in English and in Japanese; the game goes on
to its end.

The refusals are injected between the page and the real server (Playwright's routes), in
the wire shape the server uses for a database outage.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from e2e_helpers import (
    bluff_move,
    bluff_turn,
    create_table,
    play_out,
    start,
    state_n,
    wait_after,
)

HINT = 1.0  # the injected retry_after (seconds): long enough to read the notice
RETRYING = {"en-US": "The server is busy, retrying…",
            "ja-JP": "サーバーが混み合っています。再試行しています…"}


def unavailable(ref: Any = None) -> dict[str, Any]:
    out = {"type": "error", "code": "unavailable", "message": "the database cannot be "
           "reached now: try again", "params": {}, "retry_after": HINT}
    return out if ref is None else {**out, "id": ref}


class Outage:
    """Between one page and the server: refuses the first POST /api/tables with 503, the
    first action (not forwarded), and replaces the second action's ack with
    ``unavailable`` (made, but the page cannot know)."""

    def __init__(self, page: Any) -> None:
        self.creates: list[float] = []
        self.acts: list[tuple[float, dict[str, Any]]] = []
        self.acks: list[dict[str, Any]] = []
        page.route("**/api/tables", self.create)
        page.route_web_socket("**/ws/tables/**", self.socket)

    def create(self, route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        self.creates.append(time.monotonic())
        if len(self.creates) == 1:
            body = {k: v for k, v in unavailable().items() if k != "type"}
            body["error"] = body.pop("code")
            route.fulfill(status=503, headers={"Retry-After": "1"},
                          content_type="application/json", body=json.dumps(body))
        else:
            route.continue_()

    def socket(self, ws: Any) -> None:
        server = ws.connect_to_server()
        swallow: set[Any] = set()

        def to_server(frame: str) -> None:
            message = json.loads(frame)
            if message.get("type") == "act":
                self.acts.append((time.monotonic(), message))
                if len(self.acts) == 1:
                    ws.send(json.dumps(unavailable(message["id"])))
                    return
                if len(self.acts) == 3:  # the first action, answered at last
                    swallow.add(message["id"])
            server.send(frame)

        def to_page(frame: str) -> None:
            message = json.loads(frame)
            messages = message["messages"] if message["type"] == "batch" else [message]
            out = []
            for m in messages:
                if m["type"] == "ack":
                    self.acks.append(m)
                    if m.get("id") in swallow:
                        swallow.discard(m["id"])
                        m = unavailable(m["id"])
                out.append(m)
            ws.send(json.dumps(out[0] if len(out) == 1 else {"type": "batch", "messages": out}))

        ws.on_message(to_server)
        server.on_message(to_page)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_page_retries_unavailable_and_the_game_goes_on(new_page: Any, locale: str) -> None:
    page = new_page(locale=locale)
    outage = Outage(page)
    create_table(page, "bluff", "Alice", ["bot:random"], {"max_cards": 2, "ranks": 6})
    assert len(outage.creates) == 2
    assert outage.creates[1] - outage.creates[0] >= HINT  # not sooner than it was asked
    start(page)
    rng = random.Random(3)
    # The first action refused, the second made with its answer lost. (A lost round
    # costs one card and a hand of 2 is still in: the game goes on past two actions.)
    for _ in range(2):
        page.wait_for_selector(".turn.yours", timeout=30_000)
        before = state_n(page)
        bluff_move(page, rng, challenge=0.0)
        page.wait_for_selector(f"#notice:not([hidden]):has-text('{RETRYING[locale]}')")
        wait_after(page, before)
        page.wait_for_function("document.body.dataset.retrying !== '1'")
    sent = [m for _, m in outage.acts]
    assert sent[0]["key"] == sent[1]["key"] and sent[0]["id"] == sent[1]["id"]  # resent
    assert outage.acts[1][0] - outage.acts[0][0] >= HINT
    assert sent[2]["key"] == sent[3]["key"]  # the lost answer: the same action again
    assert [a["action"] for a in outage.acks[-2:]] == [sent[2]["action"]] * 2  # made once
    play_out(page, bluff_turn, challenge=0.5)
    assert page.get_attribute("body", "data-status") == "finished"
