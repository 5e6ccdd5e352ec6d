"""Chat, reactions, mutes, reports and sanctions at a table, and the host's options after
creation, through one worker in-process (the cluster: test_chat_cluster.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat, close_all
from typer.testing import CliRunner

from usotsuki.cli.main import app as cli
from usotsuki.server import chat_store
from usotsuki.server.app import create_app
from usotsuki.server.store import Store

XSS = '<img src=x onerror="alert(1)">&amp;<script>alert(2)</script>'


@dataclass
class Person:
    """A browser's identity: its session cookie and CSRF token."""

    cookie: str
    csrf: str
    id: str

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"usotsuki_session={self.cookie}", "X-CSRF-Token": self.csrf}


def person(c: TestClient, name: str | None = None) -> Person:
    """A new guest (the client's own cookie jar left empty), renamed to ``name``."""
    c.cookies.clear()
    me = c.get("/api/me")
    cookie = c.cookies.get("usotsuki_session")
    c.cookies.clear()
    assert cookie is not None
    found = Person(cookie, me.json()["csrf"], me.json()["id"])
    if name is not None:
        r = c.patch("/api/me", json={"name": name}, headers=found.headers)
        assert r.status_code == 200, r.text
    return found


def table(c: TestClient, people: int, **options: Any) -> dict[str, Any]:
    seats = [{"bot": None}] * people + [{"bot": "random"}]
    r = c.post("/api/tables", json={"game": "bluff", "seats": seats,
                                    "rules": {"max_cards": 1, "dealer": 1}, **options})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(c: TestClient, made: dict[str, Any], who: Person, name: str) -> str:
    r = c.post(f"/api/invites/{made['invite']}/join", json={"name": name},
               headers=who.headers)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def seat(c: TestClient, made: dict[str, Any], token: str | None, who: Person | None) -> Seat:
    s = Seat(c, made["table_id"], token, cookie=None if who is None else who.cookie)
    if who is not None:
        s.until("chat_history")
    return s


def said(s: Seat, kind: str = "chat") -> dict[str, Any]:
    """The next chat line or reaction (or refusal) the socket is told."""
    while True:
        m = s.until_any()
        if m["type"] in (kind, "error"):
            return m


def two_and_a_spectator(c: TestClient) -> tuple[dict[str, Any], list[Person], list[Seat]]:
    """A table where Mika (seat 0) and Ren (seat 1) sit and Nao watches: their
    identities and sockets."""
    made = table(c, 2)
    mika, ren, watcher = person(c, "Mika"), person(c, "Ren"), person(c, "Nao")
    sockets = [seat(c, made, join(c, made, mika, "Mika"), mika),
               seat(c, made, join(c, made, ren, "Ren"), ren), seat(c, made, None, watcher)]
    return made, [mika, ren, watcher], sockets


@pytest.fixture
def c() -> Any:
    with TestClient(create_app(bot_delay=0, rate_limit=(1000.0, 1000.0))) as client:
        yield client
        close_all()


def test_players_chat_reaches_everyone_spectators_only_spectators(c: TestClient) -> None:
    made, (mika, ren, watcher), (a, b, spectator) = two_and_a_spectator(c)
    a.send({"type": "chat", "text": f"  hello\u202e {XSS}\n  https://example.com  ", "id": 1})
    lines = [said(s)["line"] for s in (a, b, spectator)]
    assert lines[0] == lines[1] == lines[2]
    line = lines[0]
    # one line, blanks squeezed, the bidi override gone; markup and links kept as text
    assert line["text"] == f"hello {XSS} https://example.com"
    assert (line["name"], line["seat"], line["channel"], line["player"]) == (
        "Mika", 0, "players", mika.id)
    spectator.send({"type": "chat", "text": "go Mika", "id": 2})
    heard = said(spectator)["line"]
    assert (heard["channel"], heard["name"], heard["seat"]) == ("spectators", "Nao", None)
    a.send({"type": "chat", "text": "next", "id": 3})
    assert said(b)["line"]["text"] == "next"  # (the spectators' line never reached b)
    assert said(spectator)["line"]["text"] == "next"
    # history on (re)connection: the players' channel to players, both to spectators
    again = seat(c, made, None, watcher)
    assert [m["text"] for m in again.messages[-1]["messages"]] == [
        line["text"], "go Mika", "next"]
    b.close()
    back = Seat(c, made["table_id"], None, cookie=ren.cookie)
    assert back.until("chat_history")["you"] == ren.id


def test_a_seated_players_history_holds_no_spectators_line(c: TestClient) -> None:
    made = table(c, 1)
    mika, watcher = person(c, "Mika"), person(c, "Nao")
    token = join(c, made, mika, "Mika")
    spectator = seat(c, made, None, watcher)
    spectator.send({"type": "chat", "text": "psst"})
    said(spectator)
    player = seat(c, made, token, mika)
    assert player.messages[-1]["messages"] == []


def test_chat_refusals_length_rate_identity_and_the_hosts_switch(c: TestClient) -> None:
    made = table(c, 1)
    mika = person(c, "Mika")
    a = seat(c, made, join(c, made, mika, "Mika"), mika)
    a.send({"type": "chat", "text": "x" * (chat_store.CHAT_MAX + 1), "id": "long"})
    m = said(a)
    assert (m["code"], m["id"], m["params"]) == ("chat_too_long", "long",
                                                 {"max": chat_store.CHAT_MAX})
    a.send({"type": "chat", "text": " \u200b\t ", "id": "blank"})
    assert said(a)["code"] == "bad_chat"
    for n in range(chat_store.RATE_MESSAGES):
        a.send({"type": "chat", "text": f"line {n}"})
        assert said(a)["line"]["text"] == f"line {n}"
    a.send({"type": "chat", "text": "one more", "id": "fast"})
    refused = said(a)
    assert refused["code"] == "chat_rate" and refused["retry_after"] > 0
    anonymous = Seat(c, made["table_id"], None)  # no session cookie: no identity
    anonymous.send({"type": "chat", "text": "hi", "id": 9})
    assert said(anonymous)["code"] == "no_player"
    r = c.post(f"/api/tables/{made['table_id']}/options", json={"token": "nope", "chat": False})
    assert r.status_code == 403
    r = c.post(f"/api/tables/{made['table_id']}/options",
               json={"token": made["host_token"], "chat": False})
    assert r.json() == {"chat": False, "hints": True}
    event = a.until("event")["event"]
    assert event == {"type": "options", "chat": False, "hints": True}
    a.send({"type": "chat", "text": "hello?", "id": "off"})
    assert said(a)["code"] == "chat_off"


def test_reactions_are_a_fixed_set_at_the_seat_rate_limited(c: TestClient) -> None:
    made, (mika, ren, watcher), (a, b, spectator) = two_and_a_spectator(c)
    b.send({"type": "react", "reaction": "nice_bluff"})
    for s in (a, b, spectator):
        assert said(s, "reaction") == {"type": "reaction", "seat": 1, "player": ren.id,
                                       "reaction": "nice_bluff"}
    b.send({"type": "react", "reaction": XSS, "id": 4})
    refused = said(b, "reaction")
    assert refused["code"] == "bad_reaction" and "laugh" in refused["params"]["known"]
    spectator.send({"type": "react", "reaction": "laugh", "id": 5})
    assert said(spectator, "reaction")["code"] == "spectator"
    codes = []
    for _ in range(5):
        a.send({"type": "react", "reaction": "laugh"})
        m = said(a, "reaction")
        codes.append(m.get("code", m["type"]))
    assert "reaction" in codes and codes[-1] == "rate_limited"


def test_a_muted_players_lines_and_reactions_are_gone_for_the_muter(c: TestClient) -> None:
    made = table(c, 3)
    mika, ren, kai = person(c, "Mika"), person(c, "Ren"), person(c, "Kai")
    a = seat(c, made, join(c, made, mika, "Mika"), mika)
    b = seat(c, made, join(c, made, ren, "Ren"), ren)
    k = seat(c, made, join(c, made, kai, "Kai"), kai)
    b.send({"type": "chat", "text": "before"})
    for s in (a, b, k):
        said(s)
    a.send({"type": "mute", "player": ren.id, "on": True})
    assert a.until("muted")["muted"] == [ren.id]
    b.send({"type": "chat", "text": "after"})
    b.send({"type": "react", "reaction": "laugh"})
    k.send({"type": "chat", "text": "from Kai"})
    assert said(b)["line"]["text"] == "after"  # the others still hear Ren
    assert said(k)["line"]["text"] == "after"
    assert said(a)["line"]["text"] == "from Kai"  # Mika hears neither line nor laugh
    assert not any(m["type"] == "reaction" for m in a.messages)
    again = seat(c, made, None, mika)  # nor in the history
    assert [m["text"] for m in again.messages[-1]["messages"]] == ["from Kai"]
    assert again.messages[-1]["muted"] == [ren.id]
    assert c.get("/api/mutes", headers=mika.headers).json()[0]["name"] == "Ren"
    a.send({"type": "mute", "player": ren.id, "on": False})
    assert a.until("muted")["muted"] == []
    b.send({"type": "chat", "text": "heard again"})
    assert said(a)["line"]["text"] == "heard again"
    a.send({"type": "mute", "player": mika.id, "on": True, "id": 7})
    assert said(a, "muted")["code"] == "bad_mute"


def test_hints_change_before_the_start_only_and_never_at_rated_tables(c: TestClient) -> None:
    made = table(c, 1)
    options = f"/api/tables/{made['table_id']}/options"
    host = made["host_token"]
    assert made["table"]["options"] == {"chat": True, "hints": True}
    assert c.post(options, json={"token": host}).json()["error"] == "bad_options"
    r = c.post(options, json={"token": host, "hints": False, "extra": 1})
    assert r.status_code == 422
    assert c.post(options, json={"token": host, "hints": False}).json() == {
        "chat": True, "hints": False}
    assert c.get(f"/api/tables/{made['table_id']}").json()["options"]["hints"] is False
    token = join(c, made, person(c), "Mika")
    assert c.post(f"/api/tables/{made['table_id']}/start",
                  json={"token": host}).status_code == 200
    r = c.post(options, json={"token": host, "hints": True})
    assert (r.status_code, r.json()["error"]) == (409, "started")
    assert c.post(options, json={"token": host, "chat": False}).json()["chat"] is False
    assert c.post(options, json={"token": host, "chat": False}).status_code == 200  # again
    events = [m["event"] for m in Seat(c, made["table_id"], token).events()
              if m["event"]["type"] == "options"]
    assert events == [{"type": "options", "chat": True, "hints": False},
                      {"type": "options", "chat": False, "hints": False}]


def test_public_tables_start_with_chat_off_and_options_survive_a_restart(
        tmp_path: Path) -> None:
    db = str(tmp_path / "server.sqlite3")
    with TestClient(create_app(store=Store(db), bot_delay=0)) as c:
        made = table(c, 1, visibility="public")
        assert made["table"]["options"] == {"chat": False, "hints": True}
        r = c.post(f"/api/tables/{made['table_id']}/options",
                   json={"token": made["host_token"], "chat": True, "hints": False})
        assert r.status_code == 200
    with TestClient(create_app(store=Store(db), bot_delay=0)) as c:  # folded again from the log
        info = c.get(f"/api/tables/{made['table_id']}").json()
        assert info["options"] == {"chat": True, "hints": False}


def test_a_report_keeps_the_lines_around_and_admin_sanctions_hold(tmp_path: Path) -> None:
    db = str(tmp_path / "server.sqlite3")
    runner = CliRunner()
    with TestClient(create_app(store=Store(db), bot_delay=0, rate_limit=(1000.0, 1000.0))) as c:
        try:
            made = table(c, 2)
            mika, ren = person(c, "Mika"), person(c, XSS[:30])
            a = seat(c, made, join(c, made, mika, "Mika"), mika)
            b = seat(c, made, join(c, made, ren, "Ren"), ren)
            for n, (who, text) in enumerate([(a, "hi"), (b, XSS), (a, "rude!"), (b, "ok")]):
                who.send({"type": "chat", "text": text, "id": n})
                assert said(a)["line"]["text"] == said(b)["line"]["text"] == text
            ids = [m["line"]["id"] for m in b.messages if m["type"] == "chat"]
            path = f"/api/tables/{made['table_id']}/chat/{ids[1]}/report"
            r = c.post(path, json={"reason": XSS}, headers=mika.headers)
            assert r.status_code == 201, r.text
            number = r.json()["report"]
            assert c.post(path, json={}, headers=mika.headers).json() == r.json()  # once
            assert c.post(path, json={}, headers=ren.headers).json()["error"] == "bad_report"
            assert c.post(path, json={}).status_code == 401  # an identity reports
            missing = f"/api/tables/{made['table_id']}/chat/999999/report"
            assert c.post(missing, json={}, headers=mika.headers).status_code == 404
            store: Store = c.app.state.store  # type: ignore[attr-defined]
            [kept] = chat_store.reports(store.engine)
            assert [m["text"] for m in kept["context"]["messages"]] == ["hi", XSS, "rude!", "ok"]
            assert (kept["author"], kept["reporter"], kept["reason"]) == (ren.id, mika.id, XSS)

            listed = runner.invoke(cli, ["admin", "reports", "--db", db])
            assert listed.exit_code == 0, listed.output
            assert f"report {number} (open)" in listed.output
            assert f">> [{ren.id}]" in listed.output and XSS in listed.output
            muted = runner.invoke(cli, ["admin", "mute", ren.id, "--db", db, "--reason", "spam"])
            assert muted.exit_code == 0 and "muted until lifted" in muted.output
            b.send({"type": "chat", "text": "still here?", "id": "m"})
            assert said(b)["code"] == "silenced"
            b.send({"type": "react", "reaction": "laugh", "id": "r"})
            assert said(b, "reaction")["code"] == "silenced"
            assert runner.invoke(cli, ["admin", "ban", ren.id, "--db", db]).exit_code == 0
            other = table(c, 1)
            r = c.post(f"/api/invites/{other['invite']}/join", json={"name": "Ren"},
                       headers=ren.headers)
            assert (r.status_code, r.json()["error"]) == (403, "banned")
            r = c.post("/api/tables", json={"game": "bluff", "seats": [{"bot": None}] * 2},
                       headers=ren.headers)
            assert (r.status_code, r.json()["error"]) == (403, "banned")
            r = c.post("/api/match", json={"game": "bluff"}, headers=ren.headers)
            assert (r.status_code, r.json()["error"]) == (403, "banned")  # no quick match
            listed = runner.invoke(cli, ["admin", "sanctions", "--db", db])
            assert "mute" in listed.output and "ban" in listed.output and "spam" in listed.output
            lifted = runner.invoke(cli, ["admin", "lift", ren.id, "--db", db])
            assert "2 sanctions" in lifted.output
            assert join(c, other, ren, "Ren")
            assert runner.invoke(cli, ["admin", "handled", str(number), "--db", db]).exit_code == 0
            assert "no reports to handle" in runner.invoke(
                cli, ["admin", "reports", "--db", db]).output
            unknown = runner.invoke(cli, ["admin", "ban", "nobody", "--db", db])
            assert unknown.exit_code == 2 and "no player" in unknown.output
        finally:
            close_all()
