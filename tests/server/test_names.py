"""Names at a table: unique (NFKC + casefold), bots' names reserved and yielded, names
checked with clear errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import create

from usotsuki.server.names import (
    BOT_LEVELS_JA,
    BOT_NAMES,
    BOT_NAMES_JA,
    NAME_MAX,
    name_key,
    reserved_at_table,
    seat_names,
    with_suffix,
)

MESSAGES = Path(__file__).parents[2] / "src/usotsuki/server/static/js/messages"


def join(c: TestClient, table: dict[str, Any], name: str) -> Any:
    return c.post(f"/api/invites/{table['invite']}/join", json={"name": name})


def shown(c: TestClient, table: dict[str, Any]) -> list[str | None]:
    return [s["name"] for s in c.get(f"/api/tables/{table['table_id']}").json()["seats"]]


def test_keys_fold_width_and_case() -> None:
    assert name_key("Ｍｉｋａ") == name_key("MIKA") == name_key("mika") == "mika"
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("ﾐｶ") == name_key("ミカ")  # half-width kana
    assert name_key("Mika Ito") == name_key("MIKA ITO")
    assert name_key("Mika") != name_key("Mila")


@pytest.mark.parametrize("name", ["Hana (hard)", "hana (HARD)", "Ｈａｎａ （ｈａｒｄ）",
                                  "Mika (expert)", "ハナ（むずかしい）", "Kenji (random)",
                                  "You", "you", "ＹＯＵ", "あなた", "Deleted  Player"])
def test_bots_names_and_the_pages_words_are_reserved(name: str) -> None:
    assert reserved_at_table(name)


@pytest.mark.parametrize("name", ["Hana", "Kenji", "Mika (Tokyo)", "Youko", "ハナ",
                                  "hard", "(hard)x", "Guest", "ゲスト"])
def test_ordinary_names_are_free_at_a_table(name: str) -> None:
    assert not reserved_at_table(name)


def test_a_suffix_finds_the_first_free_name_and_stays_within_the_limit() -> None:
    assert with_suffix("Mika", ["Ann"]) == "Mika"
    assert with_suffix("Mika", ["mika"]) == "Mika 2"
    assert with_suffix("Mika", ["MIKA", "Mika 2", "ｍｉｋａ ３"]) == "Mika 4"
    long = "M" * NAME_MAX
    assert with_suffix(long, [long]) == "M" * (NAME_MAX - 2) + " 2"
    # a cut never leaves a joiner or a combining mark without what it joined
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man ZWJ woman ZWJ girl
    name = "x" * (NAME_MAX - 6) + family  # the cut falls after the second joiner
    assert with_suffix(name, [name]) == "x" * (NAME_MAX - 6) + "\U0001f468\u200d\U0001f469 2"
    accented = "e" * (NAME_MAX - 2) + "e\u0301"
    assert with_suffix(accented, [accented]) == "e" * (NAME_MAX - 2) + " 2"


def test_a_bot_yields_its_given_name_to_a_person() -> None:
    assert seat_names([(None, "hard"), (None, "normal"), (None, None)]) == [
        "Hana (hard)", "Kenji (normal)", None]
    # Kenji is a person here: the bot of seat 1 takes the first given name nobody bears
    assert seat_names([("Kenji", None), (None, "normal"), (None, "hard")]) == [
        "Kenji", "Hana (normal)", "Yuki (hard)"]
    # compared by key, and in the Japanese spelling the pages show too
    assert seat_names([(None, "hard"), ("ｋｅｎｊｉ", None), ("ハナ", None), (None, "easy")]) == [
        "Yuki (hard)", "ｋｅｎｊｉ", "ハナ", "Taro (easy)"]
    # names a log holds alike (written before joins kept them apart, or anonymised)
    assert seat_names([("deleted player", None), (None, "easy"), ("Deleted Player", None)]) == [
        "deleted player", "Kenji (easy)", "Deleted Player 2"]
    # a full table of bots and people bearing their names: every name still differs
    people = [(g, None) for g in BOT_NAMES[:4]]
    names = seat_names([*people, *[(None, "easy")] * 4])
    assert len({name_key(n or "") for n in names}) == 8
    assert all(not any(name_key(g) == name_key(n.split(" (")[0]) for g in BOT_NAMES[:4])
               for n in names[4:] if n)


def test_the_japanese_spellings_follow_the_catalogue() -> None:
    ja = (MESSAGES / "ja.js").read_text(encoding="utf-8")
    entries = dict(re.findall(r'"((?:botname|bot)\.[A-Za-z]+)": "([^"]+)"', ja))
    assert tuple(entries[f"botname.{g}"] for g in BOT_NAMES) == BOT_NAMES_JA
    levels = {k.removeprefix("bot."): v for k, v in entries.items()
              if k.startswith("bot.") and k != "bot.display"}
    assert levels == BOT_LEVELS_JA


def test_two_people_named_alike_sit_apart(client: TestClient) -> None:
    table = create(client, "bluff", [None, None, None, "normal"])
    first = join(client, table, "Mika")
    second = join(client, table, "ｍｉｋａ")  # the same name, full width
    third = join(client, table, "MIKA")
    assert [r.status_code for r in (first, second, third)] == [200, 200, 200]
    assert shown(client, table) == ["Mika", "ｍｉｋａ 2", "MIKA 3", "Taro (normal)"]
    # the names the game starts with (its record's players) are those
    client.post(f"/api/tables/{table['table_id']}/start", json={"token": table["host_token"]})
    games = client.get(f"/api/tables/{table['table_id']}/games").json()
    assert games[0]["names"] == ["Mika", "ｍｉｋａ 2", "MIKA 3", "Taro (normal)"]


def test_guests_of_the_default_name_sit_apart(client: TestClient) -> None:
    table = create(client, "bluff", [None, None, "easy"])
    assert join(client, table, "Guest").status_code == 200
    assert join(client, table, "guest").status_code == 200
    assert shown(client, table) == ["Guest", "guest 2", "Yuki (easy)"]


def test_a_bot_takes_another_name_when_a_person_bears_its_own(client: TestClient) -> None:
    table = create(client, "liar", ["sensible", None, "random"])
    assert shown(client, table) == ["Hana (sensible)", None, "Yuki (random)"]
    assert join(client, table, "hana").status_code == 200
    names = shown(client, table)
    assert names == ["Kenji (sensible)", "hana", "Yuki (random)"]
    tid = table["table_id"]
    client.post(f"/api/tables/{tid}/start", json={"token": table["host_token"]})
    assert client.get(f"/api/tables/{tid}/games").json()[0]["names"] == names


def test_a_person_leaving_before_the_start_gives_the_name_back(client: TestClient) -> None:
    table = create(client, "bluff", [None, None])
    mika = join(client, table, "Mika").json()
    assert join(client, table, "Mika").status_code == 200
    assert shown(client, table) == ["Mika", "Mika 2"]
    leave = client.post(f"/api/tables/{table['table_id']}/leave", json={"token": mika["token"]})
    assert leave.status_code == 204
    assert join(client, table, "mika").json()["seat"] == 0
    assert shown(client, table) == ["mika", "Mika 2"]


@pytest.mark.parametrize("name", ["Hana (hard)", "kenji (NORMAL)", "You", "あなた"])
def test_joining_as_a_bot_or_as_you_is_refused(client: TestClient, name: str) -> None:
    table = create(client, "bluff", [None, "hard"])
    r = join(client, table, name)
    assert r.status_code == 400
    assert r.json()["error"] == "reserved_name" and r.json()["params"] == {"name": name}
    assert "choose another" in r.json()["message"]
    assert shown(client, table) == [None, "Kenji (hard)"]


@pytest.mark.parametrize("name,says", [
    ("", "at least 1 character"), ("x" * (NAME_MAX + 1), "at most 32 characters"),
    ("   ", "must not be blank"), ("\u200b\u200b", "U+200B"),
    ("Mika\u202eakiM", "U+202E, right-to-left override"), ("Mi\x1bka", "U+001B"),
    ("Mi\x00ka", "U+0000"), ("\u2066Mika", "U+2066")])
def test_bad_names_are_refused_with_what_is_wrong(client: TestClient, name: str,
                                                  says: str) -> None:
    table = create(client, "bluff", [None, "hard"])
    r = join(client, table, name)
    assert r.status_code == 422 and r.json()["error"] == "bad_request"
    assert says in r.json()["message"], r.json()["message"]
    assert shown(client, table)[0] is None


def test_line_breaks_and_tabs_are_blanks_squeezed(client: TestClient) -> None:
    table = create(client, "bluff", [None, "hard"])
    assert join(client, table, " Mi\n\tka ").status_code == 200
    assert shown(client, table)[0] == "Mi ka"


def test_the_games_list_tells_each_asker_their_own_seat(client: TestClient) -> None:
    from history_helpers import Guest

    table = create(client, "bluff", [None, "random", None])
    mika, ann, stranger = Guest(client), Guest(client), Guest(client)
    assert mika.join(table["invite"], "Mika") and ann.join(table["invite"], "Ann")
    tid = table["table_id"]
    client.post(f"/api/tables/{tid}/start", json={"token": table["host_token"]})
    path = f"/api/tables/{tid}/games"
    assert [g["you"] for g in mika.get(path)] == [0]
    assert [g["you"] for g in ann.get(path)] == [2]
    assert [g["you"] for g in stranger.get(path)] == [None]
    assert [g["you"] for g in client.get(path).json()] == [None]  # no session at all
    # a seat token says nothing here: only the asker's own session does
    assert "token" not in str(client.get(path).json())
