"""Another player's private game is refused: a game at an invite-only table is seen by
its players (and whoever holds the table's link), never listed, counted or linked to a
stranger, whichever way the stranger asks."""

from __future__ import annotations

import secrets

from fastapi.testclient import TestClient
from history_helpers import Guest, kept_games
from server_helpers import create
from waits import wait_for


def test_a_stranger_never_sees_another_players_private_game(client: TestClient) -> None:
    ann = Guest(client)
    table = create(client, "bluff", [None, "random", "random"], {"max_cards": 2})
    tid = table["table_id"]
    token = ann.join(table["invite"], "Ann")
    client.post(f"/api/tables/{tid}/start", json={"token": token})
    client.post(f"/api/tables/{tid}/leave", json={"token": token})  # the bots play on
    wait_for(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished",
             "the game to end")
    [game] = kept_games(client, ann, 1)
    assert game["table_id"] == tid and not game["public"]

    mallory = Guest(client)
    forged = f"usotsuki_session={ann.id}"  # a player's public id is no session
    for viewer in ({"Cookie": mallory.cookie}, {}, {"Cookie": forged}):
        answers = [client.get(path, headers=viewer) for path in (
            f"/api/players/{ann.id}",
            f"/api/players/{ann.id}/games",
            f"/api/players/{ann.id}/games?game=bluff&result=win",
            f"/api/players/{ann.id}/games?result=loss",
            f"/api/players/{ann.id}/games?rules={game['rules_key']}",
            f"/api/players/{ann.id}/games?before=99999999999.0_99999999",
            f"/api/players/{ann.id}/ratings",
            "/api/players/bot:bluff:random/games",  # the bots that played it
            "/api/players/bot:bluff:random",
        )]
        assert [a.status_code for a in answers] == [200] * len(answers)
        assert all(tid not in a.text for a in answers), viewer
        assert answers[0].json()["games"] == {}  # nothing counted either
        assert answers[1].json() == {"games": [], "next": None}
        assert answers[8].json()["games"] == {}
    assert mallory.get("/api/me/games") == {"games": [], "next": None}
    assert client.get("/api/me/games", headers={"Cookie": forged}).status_code == 401

    # Without the table's link, its record, replay and review are not found.
    guess = secrets.token_urlsafe(9)
    for path in (f"/api/tables/{guess}/games/0/record", f"/api/tables/{guess}/games/0/replay",
                 f"/api/tables/{guess}/games/0/review"):
        assert client.get(path, headers={"Cookie": mallory.cookie}).status_code == 404
    # Its player sees it all, and whoever holds the link reads the record.
    assert ann.get(f"/api/players/{ann.id}")["games"]["bluff"]["games"] == 1
    assert ann.get(f"/api/players/{ann.id}/games")["games"][0]["table_id"] == tid
    assert client.get(game["links"]["record"]).status_code == 200
