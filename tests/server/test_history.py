"""Every game kept: a finished game is stored once with its seats' players and places,
caught up after a crash, and read back through profiles, game lists and rating
histories, each showing only what its viewer may see."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from history_helpers import Guest, kept_games, play_to_the_end, synthetic
from server_helpers import Seat, close_all, create
from sqlalchemy import Connection, func, select
from waits import wait_for

from usotsuki.server.app import create_app
from usotsuki.server.history import GameKeeper, SeatResult, keep, places
from usotsuki.server.player_tables import played_games, played_seats, players, ratings
from usotsuki.server.store import Store


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store=Store(db_url), bot_delay=0,
                               rate_limit=(1000.0, 1000.0))) as c:
        yield c
        close_all()


def test_places_follow_the_standings_ties_share_and_leavers_go_last() -> None:
    assert places(((2,), (0,), (1,)), 3) == [2, 3, 1]
    assert places(((1, 2), (0,)), 3) == [3, 1, 1]  # a tie shares the better place
    # a rated game's leaver places below everyone who stayed, whatever the standings
    assert places(((0,), (1,), (2,), (3,)), 4, leavers=(0, 2)) == [3, 1, 4, 2]


def test_a_game_is_kept_once_with_players_places_and_who_left(client: TestClient) -> None:
    ann, bob = Guest(client), Guest(client)
    table = create(client, "bluff", [None, None, "random"], {"max_cards": 2})
    tid = table["table_id"]
    ann_token = ann.join(table["invite"], "Ann", 0)
    bob_token = bob.join(table["invite"], "Bob", 1)
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["name"] for s in seats][:2] == ["Ann", "Bob"]
    assert client.post(f"/api/tables/{tid}/start", json={"token": ann_token}).status_code == 200
    # Bob leaves mid-game: a bot plays on for him; Ann plays to the end
    assert client.post(f"/api/tables/{tid}/leave", json={"token": bob_token}).status_code == 204
    play_to_the_end(Seat(client, tid, ann_token), random.Random(1))
    standings = client.get(f"/api/tables/{tid}/games").json()[0]["standings"]

    [game] = kept_games(client, ann, 1)
    assert (game["table_id"], game["number"], game["game"]) == (tid, 0, "bluff")
    assert game["rules"] == client.get(f"/api/tables/{tid}/games/0/record").json()["rules"]
    assert not game["public"] and not game["rated"] and game["rating"] is None
    by_seat = {s["seat"]: s for s in game["seats"]}
    assert by_seat[0]["player_id"] == ann.id and by_seat[0]["name"] == "Ann"
    assert by_seat[0]["bot"] is None and not by_seat[0]["left"]
    assert by_seat[1]["player_id"] == bob.id and by_seat[1]["left"]
    assert by_seat[1]["bot"] is not None  # the stand-in that played on for Bob
    assert by_seat[2]["player_id"] == "bot:bluff:random" and by_seat[2]["bot"] == "random"
    assert by_seat[2]["name"].endswith("(random)")
    for place, group in enumerate(standings):  # places from the game's standings
        assert all(by_seat[s]["place"] == 1 + sum(len(g) for g in standings[:place])
                   for s in group)
    assert game["links"] == {
        "record": f"/api/tables/{tid}/games/0/record",
        "replay": f"/replay.html?t={tid}&game=0",
        "review": f"/replay.html?t={tid}&game=0&review=1"}
    assert client.get(game["links"]["record"]).status_code == 200

    profile = ann.get(f"/api/players/{ann.id}")
    assert profile["id"] == ann.id and profile["kind"] == "guest" and profile["bot"] is False
    bluff = profile["games"]["bluff"]
    assert bluff["games"] == 1 and sum(bluff["places"]) == 1
    assert bluff["wins"] == (1 if by_seat[0]["place"] == 1 else 0)
    assert bluff["win_share"] == bluff["wins"]
    assert bluff["favourite_rules"] == [{"rules": game["rules"], "key": game["rules_key"],
                                         "games": 1}]
    assert bluff["rating"] is None
    # Bob, who played there, sees it on Ann's profile; the bot level is a player too
    assert bob.get(f"/api/players/{ann.id}")["games"]["bluff"]["games"] == 1
    assert bob.get(f"/api/players/{ann.id}/games")["games"][0]["table_id"] == tid
    bot = client.get("/api/players/bot:bluff:random").json()
    assert bot["kind"] == "bot" and bot["name"] == "random" and bot["bot"] is True
    # one row per game, however often it ends up asked for
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        assert count(conn, played_games) == 1 and count(conn, played_seats) == 3


def count(conn: Connection, table: Any) -> int:
    return int(conn.execute(select(func.count()).select_from(table)).scalar() or 0)


def test_a_game_whose_write_was_lost_is_kept_when_its_table_is_loaded(db_url: str) -> None:
    """The worker dies between a game's last action (committed) and the game's write:
    the next worker to load the table stores it, from the log."""
    db = db_url
    with TestClient(create_app(store=Store(db), bot_delay=0)) as c:
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        lobby.keeper.game_ended = lambda game: None  # (as if the process died right then)
        table = create(c, "bluff", ["random", "cautious", "random"], {"max_cards": 2})
        tid = table["table_id"]
        c.post(f"/api/tables/{tid}/start", json={"token": table["host_token"]})
        wait_for(lambda: c.get(f"/api/tables/{tid}").json()["status"] == "finished",
                 "the game of bots to end")
        assert c.get("/api/players/bot:bluff:cautious").status_code == 404  # never kept
        close_all()
    with TestClient(create_app(store=Store(db), bot_delay=0)) as c:
        assert c.get(f"/api/tables/{tid}").status_code == 200  # loads it: caught up
        store: Store = c.app.state.store  # type: ignore[attr-defined]
        with store.engine.connect() as conn:
            assert count(conn, played_games) == 1
            rows = conn.execute(select(played_seats.c.player_id, played_seats.c.place)
                                .order_by(played_seats.c.seat)).all()
        assert [r.player_id for r in rows] == ["bot:bluff:random", "bot:bluff:cautious",
                                              "bot:bluff:random"]
        assert sorted(r.place for r in rows)[0] == 1
        # loaded again elsewhere (a new worker): nothing is stored twice
        c.app.state.lobby._drop(c.app.state.lobby.by_id[tid])  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{tid}").status_code == 200
        with store.engine.connect() as conn:
            assert count(conn, played_games) == 1
        close_all()


class FakeRatings:
    """A ratings update that moves each seat by its place (the real one: ratings.py)."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[str, list[SeatResult]]] = []
        self.fail = fail

    def __call__(self, conn: Connection, game: str, seats_results: list[SeatResult],
                 now: float, pool: str | None = None) -> dict[int, tuple[float, float]]:
        assert pool == game  # a game of people's tables: their own pool
        self.calls.append((game, seats_results))
        if self.fail:
            raise RuntimeError("the ratings could not be updated")
        return {s.seat: (1500.0, 1500.0 + 10 * (2 - s.place)) for s in seats_results}


def test_a_rated_game_is_rated_in_its_own_transaction_once(db_url: str) -> None:
    store = Store(db_url)
    game = synthetic(1, 0, 100.0, [("p:a", 1), ("p:b", 2), ("bot:bluff:hard", 3)],
                     rated=True)
    failing = FakeRatings(fail=True)
    with pytest.raises(RuntimeError):
        keep(store, game, failing)
    with store.engine.connect() as conn:  # all or nothing: the game is not kept either
        assert count(conn, played_games) == 0 and count(conn, players) == 0
    ratings = FakeRatings()
    assert keep(store, game, ratings)
    assert not keep(store, game, ratings)  # stored already: neither kept nor rated again
    assert len(ratings.calls) == 1 and ratings.calls[0][0] == "bluff"
    assert [s.player_id for s in ratings.calls[0][1]] == ["p:a", "p:b", "bot:bluff:hard"]
    with store.engine.connect() as conn:
        rows = conn.execute(select(played_seats.c.rating_before, played_seats.c.rating_after)
                            .order_by(played_seats.c.seat)).all()
        bots = conn.execute(select(players.c.id, players.c.kind)).all()
    assert [tuple(r) for r in rows] == [(1500.0, 1510.0), (1500.0, 1500.0), (1500.0, 1490.0)]
    assert [tuple(b) for b in bots] == [("bot:bluff:hard", "bot")]
    assert keep(store, synthetic(1, 1, 101.0, [("p:a", 1), ("p:b", 2)]), ratings)
    assert len(ratings.calls) == 1  # an unrated game is not rated
    store.close()


def test_game_lists_page_newest_first_and_filter(client: TestClient) -> None:
    ann, bob = Guest(client), Guest(client)
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    table = create(client, "bluff", ["random", "random"])
    pk = store.find_table(public_id=table["table_id"]).pk  # type: ignore[union-attr]
    for n in range(25):
        rules = {"max_cards": 2} if n % 5 else {"max_cards": 3}
        keep(store, synthetic(pk, n, 1000.0 + n // 2, [(ann.id, 1 + n % 3), (bob.id, 1),
                                                         (None, 3)],
                              game="liar" if n == 7 else "bluff", rules=rules), None)
    seen: list[tuple[float, int]] = []
    page: dict[str, Any] = {"next": None}
    while True:
        query = "?limit=10" + (f"&before={page['next']}" if page["next"] else "")
        page = ann.get(f"/api/me/games{query}")
        seen += [(g["finished"], g["number"]) for g in page["games"]]
        if page["next"] is None:
            break
    assert [n for _, n in seen] == list(range(24, -1, -1))  # newest first, each once
    assert len(ann.get("/api/me/games?game=liar")["games"]) == 1
    wins = ann.get("/api/me/games?result=win&limit=100")["games"]
    assert sorted(g["number"] for g in wins) == [n for n in range(25) if n % 3 == 0]
    key = ann.get(f"/api/players/{ann.id}")["games"]["bluff"]["favourite_rules"][0]["key"]
    assert key == '{"max_cards":2}'
    assert len(ann.get(f"/api/me/games?rules={key}&limit=100")["games"]) == 20
    assert client.get(f"/api/players/{ann.id}/games?result=draw").status_code == 400
    assert client.get(f"/api/players/{ann.id}/games?before=x").status_code == 400
    # a stranger sees none of these invite-only games; Bob, who played them all, each
    assert client.get(f"/api/players/{ann.id}/games").json() == {"games": [], "next": None}
    assert len(bob.get(f"/api/players/{ann.id}/games?limit=100")["games"]) == 25
    profile = bob.get(f"/api/players/{ann.id}")["games"]
    assert profile["bluff"]["games"] == 24 and profile["liar"]["games"] == 1
    assert client.get("/api/me/games").status_code == 401


def test_rating_history_points_in_order(client: TestClient) -> None:
    ann = Guest(client)
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    table = create(client, "bluff", ["random", "random"])
    pk = store.find_table(public_id=table["table_id"]).pk  # type: ignore[union-attr]
    for n in range(3):
        keep(store, synthetic(pk, n, 500.0 - n, [(ann.id, 1 + n), ("bot:bluff:hard", 2)],
                              rated=True), FakeRatings())
    points = ann.get(f"/api/players/{ann.id}/ratings?game=bluff")
    assert [p["finished"] for p in points] == [498.0, 499.0, 500.0]
    assert [p["after"] for p in points] == [1490.0, 1500.0, 1510.0]
    assert all(p["table_id"] == table["table_id"] for p in points)
    # a stranger reads the rating's course, never which (invite-only) games made it
    hidden = client.get(f"/api/players/{ann.id}/ratings").json()
    assert [p["after"] for p in hidden] == [1490.0, 1500.0, 1510.0]
    assert all(p["table_id"] is None and p["number"] is None for p in hidden)
    assert client.get("/api/players/nobody").status_code == 404
    with store.engine.begin() as conn:  # (the ratings' own update writes this row)
        conn.execute(ratings.insert().values(player_id=ann.id, game="bluff", mu=26.0,
                                             sigma=7.0, shown=1512.4, games=3,
                                             updated=500.0))
    rating = client.get(f"/api/players/{ann.id}").json()["games"]["bluff"]["rating"]
    assert rating == {"shown": 1512, "games": 3, "provisional": True}


def test_a_failed_write_is_tried_again_at_the_next_sweep(tmp_path: Path) -> None:
    """The database away when a game ends: the keeper keeps the game and stores it at
    the lobby's next sweep."""
    store = Store(str(tmp_path / "server.sqlite3"))
    keeper = GameKeeper(store)
    real_call = store.call
    failures = [RuntimeError("the database is away")]

    async def flaky(method: Any, *args: Any) -> Any:
        if failures:
            raise failures.pop()
        return await real_call(method, *args)

    async def run() -> None:
        store.call = flaky  # type: ignore[method-assign]
        keeper.game_ended(synthetic(1, 0, 10.0, [("p:a", 1), ("p:b", 2)]))
        await keeper.settled()
        assert list(keeper.failed) == [(1, 0)]
        keeper.retry()
        await keeper.settled()
        assert not keeper.failed

    asyncio.run(run())
    with store.engine.connect() as conn:
        assert count(conn, played_games) == 1
    store.close()
