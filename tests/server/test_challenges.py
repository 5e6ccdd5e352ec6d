"""Challenges through the HTTP API on one worker: a person challenges an outside bot
(the bot is told by an event, accepts, both are seated at an unrated table with the
challenge's clock) or a house bot (accepted at once); a bot challenges a person who
takes bots' challenges; declines, withdrawals and expiry are told to the bots; the
limits and refusals."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from bot_helpers import bearer, bot_account
from fastapi.testclient import TestClient
from identity_helpers import PASSWORD, Browser
from server_helpers import Seat, close_all
from waits import wait_for

from usotsuki.server.app import create_app
from usotsuki.server.challenge_store import KEEP_SECONDS, MAX_OPEN
from usotsuki.server.challenges import EXPIRE_SECONDS
from usotsuki.server.config import RealClock, Settings


class MovableClock(RealClock):
    """Real time, moved forward by hand (a challenge's two minutes passing)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def time(self) -> float:
        return time.time() + self.ahead


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock()


@pytest.fixture
def app(clock: MovableClock) -> Any:
    return create_app(bot_delay=0, clock=clock, rate_limit=(1000.0, 1000.0))


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c
        close_all()


def other(client: TestClient) -> TestClient:
    """Another browser (its own cookie jar) on the same app."""
    return TestClient(client.app)


class Bot:
    """An outside bot: its account and a token, calling with the token only."""

    def __init__(self, client: TestClient, name: str,
                 scopes: tuple[str, ...] = ("play", "challenge")) -> None:
        self.browser, self.token = bot_account(other(client), name, scopes)
        self.id = self.browser.me["id"]
        self.c = other(client)  # no cookie: the token alone
        self.seen = 0

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return self.c.request(method, path, json=body, headers=bearer(self.token))

    def events(self, wait: float = 0.0) -> list[dict[str, Any]]:
        answer = self.call("GET", f"/api/bot/events?after={self.seen}&wait={wait}")
        assert answer.status_code == 200, answer.text
        self.seen = answer.json()["next"]
        out: list[dict[str, Any]] = answer.json()["events"]
        return out

    def next_event(self, kind: str) -> dict[str, Any]:
        found: list[dict[str, Any]] = []

        def look() -> bool:
            found.extend(e for e in self.events(wait=1.0) if e["type"] == kind)
            return bool(found)

        wait_for(look, f"a {kind} event for {self.id}")
        return found[0]


def person(client: TestClient, name: str | None = None) -> Browser:
    browser = Browser(other(client))
    if name is not None:
        assert browser.sign_up(name).status_code == 201
    return browser


def challenge(who: Browser | Bot, to: str, **body: Any) -> Any:
    payload = {"to": to, "game": "bluff", "players": 2, "preset": "short",
               "turn_seconds": 30, **body}
    if isinstance(who, Bot):
        return who.call("POST", "/api/challenges", payload)
    return who.send("POST", "/api/challenges", payload)


def test_a_person_challenges_an_outside_bot_and_both_are_seated(client: TestClient) -> None:
    bot = Bot(client, "Robo")
    ann = person(client)
    made = challenge(ann, bot.id, players=3)
    assert made.status_code == 201, made.text
    sent = made.json()
    assert sent["state"] == "open" and sent["to"] == {"id": bot.id, "name": "Robo",
                                                      "bot": True}
    assert sent["expires"] == pytest.approx(sent["created"] + EXPIRE_SECONDS)
    told = bot.next_event("challenge")
    assert told["id"] == sent["id"] and told["from"]["id"] == ann.me["id"]
    assert (told["game"], told["players"], told["preset"], told["turn_seconds"]) == (
        "bluff", 3, "short", 30)
    assert [c["id"] for c in bot.call("GET", "/api/challenges").json()["incoming"]] == [
        sent["id"]]

    waited: dict[str, Any] = {}
    waiting = threading.Thread(target=lambda: waited.update(ann.client.get(
        f"/api/challenges/{sent['id']}?wait=20").json()))
    waiting.start()  # the challenger's long poll, woken by the acceptance
    accepted = bot.call("POST", f"/api/challenges/{sent['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    mine = accepted.json()
    waiting.join(timeout=30)
    assert waited["state"] == "accepted" and waited["table_id"] == mine["table_id"]
    assert {waited["seat"], mine["seat"]} < {0, 1, 2}
    again = ann.client.get(f"/api/challenges/{sent['id']}").json()  # a read lost nothing
    assert (again["seat"], again["token"]) == (waited["seat"], waited["token"])
    theirs = bot.call("GET", f"/api/challenges/{sent['id']}").json()
    assert theirs["table_id"] == mine["table_id"] and "token" not in theirs  # never theirs

    game = bot.next_event("game")  # the bot's seat also comes as an event
    assert (game["table_id"], game["seat"], game["token"]) == (
        mine["table_id"], mine["seat"], mine["token"])
    assert game["challenge"] == sent["id"] and game["rated"] is False
    table = client.get(f"/api/tables/{mine['table_id']}").json()
    assert table["status"] == "playing" and table["players"] == 3
    assert table["turn_seconds"] == 30 and not table.get("rated")
    assert [s["bot"] for s in table["seats"]].count("normal") == 1
    assert Seat(client, mine["table_id"], mine["token"]).seat == mine["seat"]
    assert Seat(client, waited["table_id"], waited["token"]).seat == waited["seat"]
    answer = bot.call("POST", f"/api/challenges/{sent['id']}/accept")
    assert answer.status_code == 409 and answer.json()["params"]["state"] == "accepted"


def test_a_house_bot_accepts_at_once(client: TestClient) -> None:
    ann = person(client)
    made = challenge(ann, "bot:bluff:hard", players=3, turn_seconds=10)
    assert made.status_code == 201, made.text
    seat = made.json()
    assert seat["state"] == "accepted" and seat["to"]["bot"] is True
    table = client.get(f"/api/tables/{seat['table_id']}").json()
    assert table["status"] == "playing" and table["turn_seconds"] == 10
    assert sorted(str(s["bot"]) for s in table["seats"]) == ["None", "hard", "hard"]
    assert Seat(client, seat["table_id"], seat["token"]).seat == seat["seat"]
    again = ann.client.get(f"/api/challenges/{seat['id']}").json()  # an answer lost: read
    assert (again["state"], again["seat"], again["token"]) == (
        "accepted", seat["seat"], seat["token"])
    bot = Bot(client, "Tester")  # a bot may measure itself against a house bot too
    made = challenge(bot, "bot:bluff:easy").json()
    game = bot.next_event("game")  # its seat, as every seat it gets, an event too
    assert (game["table_id"], game["token"]) == (made["table_id"], made["token"])
    wrong = challenge(ann, "bot:liar:hard")
    assert wrong.status_code == 400 and wrong.json()["error"] == "bad_challenge"


def test_a_bot_challenges_a_person_who_takes_bots_challenges(client: TestClient) -> None:
    bot = Bot(client, "Challenger")
    bea = person(client, "Bea")
    refused = challenge(bot, bea.me["id"])
    assert refused.status_code == 403 and refused.json()["error"] == "no_challenges"
    assert bea.client.get("/api/challenges").json()["from_bots"] is False
    on = bea.send("PUT", "/api/challenges/settings", {"from_bots": True})
    assert on.status_code == 200 and on.json() == {"from_bots": True}
    made = challenge(bot, bea.me["id"])
    assert made.status_code == 201, made.text
    listed = bea.client.get("/api/challenges").json()
    assert listed["from_bots"] is True
    assert [(c["id"], c["from"]["name"], c["from"]["bot"]) for c in listed["incoming"]] == [
        (made.json()["id"], "Challenger", True)]
    assert [c["id"] for c in bot.call("GET", "/api/challenges").json()["outgoing"]] == [
        made.json()["id"]]
    seat = bea.send("POST", f"/api/challenges/{made.json()['id']}/accept")
    assert seat.status_code == 200, seat.text
    game = bot.next_event("game")  # the challenger bot's seat
    assert game["table_id"] == seat.json()["table_id"]
    # the accepted challenge is listed to its challenger a while: its seat is in it
    [waiting] = bot.call("GET", "/api/challenges").json()["outgoing"]
    assert (waiting["state"], waiting["table_id"]) == ("accepted", game["table_id"])
    assert "token" not in waiting
    read = bot.call("GET", f"/api/challenges/{made.json()['id']}").json()
    assert (read["seat"], read["token"]) == (game["seat"], game["token"])
    assert "token" not in bea.client.get(f"/api/challenges/{made.json()['id']}").json()
    assert Seat(client, game["table_id"], game["token"]).seat == game["seat"]
    assert bea.client.get("/api/challenges").json()["incoming"] == []


def test_declines_and_withdrawals_are_told_to_the_bots(client: TestClient) -> None:
    bot = Bot(client, "Asker")
    bea = person(client, "Bea")
    bea.send("PUT", "/api/challenges/settings", {"from_bots": True})
    first = challenge(bot, bea.me["id"]).json()
    assert bea.send("POST", f"/api/challenges/{first['id']}/decline").status_code == 204
    assert bot.next_event("challenge_ended") | {"n": 0} == {
        "n": 0, "type": "challenge_ended", "id": first["id"], "state": "declined"}
    assert bot.call("GET", f"/api/challenges/{first['id']}").json()["state"] == "declined"

    target = Bot(client, "Target")
    second = challenge(bea, target.id).json()
    assert target.next_event("challenge")["id"] == second["id"]
    assert bea.send("DELETE", f"/api/challenges/{second['id']}").status_code == 204
    ended = target.next_event("challenge_ended")
    assert (ended["id"], ended["state"]) == (second["id"], "cancelled")
    late = target.call("POST", f"/api/challenges/{second['id']}/accept")
    assert late.status_code == 409 and late.json()["error"] == "challenge_ended"
    assert late.json()["params"] == {"state": "cancelled"}
    # only its challenger withdraws it, only the challenged answers it
    third = challenge(bea, target.id).json()
    assert target.call("DELETE", f"/api/challenges/{third['id']}").status_code == 404
    assert bea.send("POST", f"/api/challenges/{third['id']}/accept").status_code == 404
    assert person(client).client.get(f"/api/challenges/{third['id']}").status_code == 404

    # a challenger deleted meanwhile cannot be seated: the challenge is cancelled
    cat = person(client, "Cat")
    fourth = challenge(cat, target.id).json()
    assert cat.send("DELETE", "/api/account", {"password": PASSWORD}).status_code == 204
    gone = target.call("POST", f"/api/challenges/{fourth['id']}/accept")
    assert gone.status_code == 409 and gone.json()["params"] == {"state": "cancelled"}


def test_an_unanswered_challenge_expires(client: TestClient, clock: MovableClock) -> None:
    bot = Bot(client, "Sleepy")
    ann = person(client)
    sent = challenge(ann, bot.id).json()
    assert bot.next_event("challenge")["id"] == sent["id"]
    clock.ahead += EXPIRE_SECONDS + 1
    ended = bot.next_event("challenge_ended")  # the sweep's
    assert (ended["id"], ended["state"]) == (sent["id"], "expired")
    assert ann.client.get(f"/api/challenges/{sent['id']}?wait=5").json()["state"] == \
        "expired"
    assert ann.client.get("/api/challenges").json()["outgoing"] == []
    late = bot.call("POST", f"/api/challenges/{sent['id']}/accept")
    assert late.status_code == 409 and late.json()["params"] == {"state": "expired"}
    assert challenge(ann, bot.id).status_code == 201  # the pair may try again
    clock.ahead += KEEP_SECONDS + 1  # a day later the ended one is gone
    wait_for(lambda: ann.client.get(f"/api/challenges/{sent['id']}").status_code == 404,
             "the ended challenge to be deleted")


def test_the_limits_and_refusals(client: TestClient) -> None:
    ann = person(client, "Ann")
    bots = [Bot(client, f"Bot{i}") for i in range(MAX_OPEN + 1)]
    first = challenge(ann, bots[0].id)
    assert first.status_code == 201
    again = challenge(ann, bots[0].id)
    assert again.status_code == 409 and again.json()["error"] == "challenge_open"
    assert again.json()["params"] == {"id": first.json()["id"]}
    assert ann.send("PUT", "/api/challenges/settings", {"from_bots": True}).status_code == 200
    back = challenge(bots[0], ann.me["id"])  # either way: one open a pair
    assert back.status_code == 409 and back.json()["error"] == "challenge_open"
    for bot in bots[1:MAX_OPEN]:
        assert challenge(ann, bot.id).status_code == 201
    over = challenge(ann, bots[MAX_OPEN].id)
    assert over.status_code == 429 and over.json()["params"] == {"max": MAX_OPEN}

    bea = person(client, "Bea")
    for body, status, code in [
            ({"to": ann.me["id"]}, 403, "no_challenges"),  # people challenge bots
            ({"to": bea.me["id"]}, 400, "bad_challenge"),  # yourself
            ({"to": "nobody"}, 404, "not_found"),
            ({"to": "bot:bluff:nobody"}, 404, "not_found"),
            ({"to": bots[MAX_OPEN].id, "preset": "house"}, 400, "bad_preset"),
            ({"to": bots[MAX_OPEN].id, "turn_seconds": 1}, 400, "bad_challenge"),
            ({"to": bots[MAX_OPEN].id, "players": 9}, 422, "bad_request")]:
        answer = challenge(bea, **body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), body
    guest = person(client)
    refused = guest.send("PUT", "/api/challenges/settings", {"from_bots": True})
    assert refused.status_code == 409 and refused.json()["error"] == "not_account"
    assert bea.send("DELETE", "/api/account", {"password": PASSWORD}
                    ).status_code == 204
    gone = challenge(bots[MAX_OPEN], bea.me["id"])
    assert gone.status_code == 404


def test_tokens_need_their_scope_and_a_bots_session_takes_no_part(
        client: TestClient) -> None:
    player_only = Bot(client, "Player", scopes=("play",))
    target = Bot(client, "Target")
    refused = challenge(player_only, target.id)
    assert refused.status_code == 403 and refused.json()["error"] == "scope"
    as_person = player_only.browser.send("POST", "/api/challenges", {
        "to": target.id, "game": "bluff"})
    assert as_person.status_code == 403 and as_person.json()["error"] == "bot_account"
    options = person(client).client.get(f"/api/challenges/to/{target.id}")
    assert options.status_code == 200
    assert options.json()["games"] == {"bluff": ["standard", "short"],
                                       "liar": ["standard", "house"]}
    house = person(client).client.get("/api/challenges/to/bot:liar:expert").json()
    assert house["level"] == "expert" and list(house["games"]) == ["liar"]


def test_house_bots_tables_count_against_the_address_quota() -> None:
    """Challenging house bots makes tables as creating them by hand does: held to the
    address's tables a minute."""
    app = create_app(settings=Settings(bot_delay=0, tables_per_minute=2))
    with TestClient(app) as c:
        ann = person(c)
        answers = [challenge(ann, "bot:bluff:easy").status_code for _ in range(3)]
        assert answers == [201, 201, 429]
        close_all()
