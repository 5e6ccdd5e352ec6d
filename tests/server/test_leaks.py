"""No hidden card ever reaches the wrong seat: every message sent to every seat and to a
spectator in random games is searched for card names, and each card found must be one
that this seat has been shown (its own cards, cards drawn or received, cards that a
challenge or doubt turned face up). The Liar Game's seed must never be sent at all, nor
the game's fairness secret before its end: until then every seat and spectator holds its
commitment only (docs/fairness.md)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat, close_all, create, join_all, play_out
from waits import GAME_S, Deadline, wait_for

from usotsuki.fairness import verify_record
from usotsuki.server.app import create_app
from usotsuki.server.config import Settings

CARD = re.compile(r"^(?:[2-9TJQKA][SHDC])$")


def card_names(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value: a token that is a card, in any string."""
    if isinstance(value, dict):
        return set().union(*(card_names(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(card_names(v) for v in value), set())
    if isinstance(value, str):
        return {t for t in value.split() if CARD.match(t)}
    return set()


def shown_by(event: dict[str, Any], seat: int | None) -> set[str]:
    """The cards an event legitimately shows the seat it was sent to."""
    kind = event["type"]
    if kind in ("hand_dealt", "dealt", "drew_cards", "played_cards") and event["seat"] == seat:
        return set(event["cards"])
    if kind == "gave_cards" and seat in (event["giver"], event["receiver"]):
        return set(event["cards"])
    if kind == "challenged":  # B9: every hand revealed
        return {c for hand in event["hands"] for c in hand}
    if kind == "doubted":  # L9: the doubted play face up
        return set(event["cards"])
    if kind == "action" and event["seat"] == seat:
        return card_names(event["action"])
    return set()


def check_no_leak(seat: Seat, sent: list[tuple[int, str]]) -> None:
    """Walk the messages this connection received in order: a card may appear only once
    an event has shown it to this seat (own typing excepted: ``sent`` errors echo it)."""
    known: set[str] = set()
    for i, message in enumerate(seat.messages):
        if message["type"] == "event":
            known |= shown_by(message["event"], seat.seat)
        if message["type"] == "error":
            typed = set().union(*(card_names(t) for j, t in sent if j <= i), set())
            assert card_names(message) <= known | typed, message
            continue
        leaked = card_names(message) - known
        assert not leaked, f"seat {seat.seat} was sent {sorted(leaked)} in {message}"


def check_secret_kept(seat: Seat, record: dict[str, Any]) -> None:
    """No message to this connection before the game's ``revealed`` event holds the
    secret, and the commitment reached it before the deal (which follows the close of
    the contributions)."""
    fair = record["fairness"]
    texts = [json.dumps(m) for m in seat.messages]
    revealed = next(i for i, m in enumerate(seat.messages)
                    if m["type"] == "event" and m["event"]["type"] == "revealed")
    assert seat.messages[revealed]["event"]["secret"] == fair["secret"]
    assert not any(fair["secret"] in t for t in texts[:revealed]), "the secret was sent early"
    committed = next(i for i, t in enumerate(texts) if fair["commitment"] in t)
    closed = next(i for i, m in enumerate(seat.messages) if m["type"] == "event"
                  and m["event"]["type"] == "contributions_closed")  # (before any deal)
    assert committed < closed


def play_and_probe(c: TestClient, game: str, players: int, rules: dict[str, Any],
                   rng: random.Random) -> tuple[list[Seat], Seat, dict[str, Any]]:
    table = create(c, game, [None] * players, rules)
    tid = table["table_id"]
    tokens = join_all(c, table)
    seats = [Seat(c, tid, t) for t in tokens]
    watcher = Seat(c, tid, None)
    c.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    for s in [*seats, watcher]:
        s.until_state(0)
    # Probe with wrong moves now and then: errors go to their sender only.
    deadline = Deadline("the end of a probed game", GAME_S)
    while deadline.left():
        done = play_out(seats, rng, others=[watcher], stop_after=rng.randint(3, 12))
        state = seats[0].state
        assert state is not None
        if done == 0 or state["status"] != "playing":
            break
        wrong = seats[(state["to_move"] + 1) % players]
        wrong.send({"type": "act", "action": "challenge" if game == "bluff" else "doubt"})
        wrong.until("error")
    record = c.get(f"/api/tables/{tid}/games/0/record").json()
    return seats, watcher, record


@pytest.mark.parametrize("game,players,rules", [
    ("bluff", 3, {"max_cards": 3}), ("bluff", 5, {"max_cards": 2}),
    ("liar", 3, {}), ("liar", 4, {"multi": True, "jack_back": True, "six_up": True}),
    ("liar", 2, {"hand_size": 5, "final_doubt": False}),
])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_hidden_card_reaches_the_wrong_seat(client: TestClient, game: str, players: int,
                                               rules: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    seats, watcher, record = play_and_probe(client, game, players, rules, rng)
    assert record["game"] == game  # the game ended (a record is only given then)
    for s in [*seats, watcher]:
        check_no_leak(s, [])
        assert s.events(), "the seat heard nothing"
    assert verify_record(record) is None
    for s in [*seats, watcher]:
        check_secret_kept(s, record)
    if game == "liar":
        seed_text = str(record["seed"])
        for s in [*seats, watcher]:
            for message in s.messages:
                assert seed_text not in json.dumps(message), "the flush seed was sent"
    # every seat saw its own whole hand in its view
    for s in seats:
        views = [m["view"] for m in s.messages if m["type"] == "state" and m["view"]]
        assert all(v["seat"] == s.seat for v in views)
    for m in watcher.messages:
        if m["type"] == "state" and m["view"]:
            assert not m["view"].get("hand")


def test_an_illegal_play_error_names_no_other_card(client: TestClient) -> None:
    table = create(client, "liar", [None, None, None])
    tid = table["table_id"]
    tokens = join_all(client, table)
    seats = [Seat(client, tid, t) for t in tokens]
    client.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    for s in seats:
        s.until_state(0)
    state = seats[0].state
    assert state is not None
    actor = seats[state["to_move"]]
    assert actor.state is not None
    mine = set(actor.state["view"]["hand"])
    other = sorted({f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC"} - mine)[0]
    typed = f"play {other} as 3"
    actor.send({"type": "act", "action": typed})
    err = actor.until("error")
    assert card_names(err) <= {other}
    check_no_leak(actor, [(len(actor.messages) - 1, typed)])


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_contributions_make_the_deal_and_the_secret_waits_for_the_end(game: str) -> None:
    settings = Settings(bot_delay=0, contribute_seconds=600)  # (all give: no wait)
    with TestClient(create_app(settings=settings, rate_limit=(1000.0, 1000.0))) as c:
        try:
            table = create(c, game, [None, None, "random"])
            tid = table["table_id"]
            tokens = join_all(c, table)
            seats = [Seat(c, tid, t) for t in tokens[:2]]
            watcher = Seat(c, tid, None)
            c.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
            for s in [*seats, watcher]:
                s.until_state(0)
            fairness = seats[0].state["fairness"] if seats[0].state else None
            assert fairness is not None and fairness["collecting"]
            assert fairness["waiting"] == [0, 1] and fairness["secret"] is None
            values = ["5a" * 32, "c3" * 32]
            spectator = {"type": "contribute", "value": "00" * 32, "id": "w"}
            watcher.send(spectator)
            assert watcher.until("error")["code"] == "spectator"
            for s, value in zip(seats, values, strict=True):
                s.send({"type": "contribute", "value": value.upper(), "id": 1})
                assert s.until("error")["code"] == "bad_contribution"
                s.send({"type": "contribute", "value": value, "id": 2})
            deadline = Deadline("the deal after both contributions", GAME_S)
            for s in [*seats, watcher]:
                while s.state is None or s.state["fairness"]["collecting"]:
                    s.recv(deadline)
            rng = random.Random(5)
            while (state := seats[0].state) is not None and state["status"] == "playing":
                if state["to_move"] in (0, 1):
                    play_out(seats, rng, others=[watcher], stop_after=1)
                    continue
                for s in [*seats, watcher]:  # the bot's turn: each hears of it
                    s.until_state(state["n"] + 1, deadline)
            record = c.get(f"/api/tables/{tid}/games/0/record").json()
            assert record["fairness"]["contributions"] == [
                {"seat": 0, "value": values[0]}, {"seat": 1, "value": values[1]}]
            assert verify_record(record) is None
            for s in [*seats, watcher]:
                while not any(m["type"] == "event" and m["event"]["type"] == "revealed"
                              for m in s.messages):
                    s.recv(deadline)
                check_secret_kept(s, record)
                check_no_leak(s, [])
        finally:
            close_all()


@pytest.mark.parametrize("game,rules", [("bluff", {"max_cards": 3}), ("liar", {})])
def test_the_lobby_and_the_watchers_of_a_public_game_learn_no_hidden_card(
        client: TestClient, game: str, rules: dict[str, Any]) -> None:
    """What the lobby shows of a game in play (its lists, the live feed's frames) holds
    no card, token, invite or secret; a spectator who came from the lobby sees only what
    every spectator may."""
    r = client.post("/api/tables", json={"game": game, "seats": [{}, {}, {}], "rules": rules,
                                         "visibility": "public"})
    assert r.status_code == 201, r.text
    table = r.json()
    tid = table["table_id"]
    tokens = join_all(client, table)
    seats = [Seat(client, tid, t) for t in tokens]
    client.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    lobby: Any = client.app.state.lobby  # type: ignore[attr-defined]

    async def frame() -> str:
        queue = lobby.listings.feed.listen()
        try:
            text: str | None = await queue.get()
            assert text is not None
            return text
        finally:
            lobby.listings.feed.leave(queue)

    live = wait_for(lambda: client.get("/api/live").json()["games"], "the game listed live")
    assert [g["table_id"] for g in live] == [tid]
    for s in seats:
        s.until_state(0)
    watcher = Seat(client, tid, None)  # (its first state is the game's present one)
    rng = random.Random(3)
    seen: list[str] = []
    deadline = Deadline("the end of a watched public game", GAME_S)
    while deadline.left():
        done = play_out(seats, rng, others=[watcher], stop_after=rng.randint(2, 6))
        client.portal.call(lobby.listings.flush)  # type: ignore[union-attr]
        seen += [client.get("/api/lobby").text, client.get("/api/live").text,
                 client.get(f"/api/tables/{tid}").text,
                 client.portal.call(frame)]  # type: ignore[union-attr]
        if done == 0 or seats[0].state is None or seats[0].state["status"] != "playing":
            break
    record = client.get(f"/api/tables/{tid}/games/0/record").json()
    assert record["game"] == game
    for text in seen:
        assert card_names(json.loads(text)) == set(), text
        for secret in (*tokens, table["invite"], table["host_token"]):
            assert secret not in text
    check_no_leak(watcher, [])
    check_secret_kept(watcher, record)
    assert any(m["type"] == "welcome" and m["table"]["visibility"] == "public"
               for m in watcher.messages)
