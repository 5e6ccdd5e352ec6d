"""Reading the games kept: a player's profile, game list and rating history.

Privacy: the games at a public table are anyone's to see; those at an invite-only table
only their players' (and whoever holds the table's link: its replay and review are
addressed by the table's id, which only its players' lists show). Someone else's
profile counts and lists only the games its viewer may see: the public ones and those
both played.

Blocking functions over the store (run through ``Store.call``). The indexes of
``played_seats`` (player_tables.py) serve each query from the player's own rows, newest
first; ``benchmarks/profiles.py`` times them with 100,000 games kept.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Integer, Select, and_, cast, func, or_, select, true

from usotsuki.server.config import Refused
from usotsuki.server.player_tables import played_games, played_seats, players, ratings
from usotsuki.server.store import Store, tables

RESULTS = ("win", "loss", "left")
"""The game list's ``result`` filter: first place, any other place, left mid-game."""
FAVOURITES = 3  # house rules shown per game on a profile
PAGE = 20  # games per page by default
MAX_PAGE = 100
PROVISIONAL_GAMES = 10  # a rating of fewer rated games is marked provisional


@dataclass(frozen=True, slots=True)
class GameFilter:
    game: str | None = None
    rules: str | None = None  # a rules key (history.rules_key), as profiles give them
    result: str | None = None  # one of RESULTS
    before: str | None = None  # the cursor of the previous page's last game
    limit: int = PAGE


def _visible(player_id: str, viewer: str | None) -> ColumnElement[bool]:
    """Which of ``player_id``'s rows (``played_seats``) ``viewer`` may see."""
    seats = played_seats
    if viewer == player_id:
        return true()
    if viewer is None:
        return seats.c.public
    mine = played_seats.alias("mine")
    both = select(mine.c.game_pk).where(mine.c.player_id == viewer)
    return or_(seats.c.public, seats.c.game_pk.in_(both))


def profile(store: Store, player_id: str, viewer: str | None) -> dict[str, Any] | None:
    """The player's name, kind and, per game, what ``viewer`` may see of their games:
    count, places, win share, favourite house rules, and rating (None: no such player)."""
    s = played_seats
    mine = and_(s.c.player_id == player_id, _visible(player_id, viewer))
    with store.engine.connect() as conn:
        who = conn.execute(select(players.c.id, players.c.kind, players.c.name)
                           .where(players.c.id == player_id)).first()
        if who is None:
            return None
        counts = conn.execute(
            select(s.c.game, s.c.place, func.count(), func.sum(
                cast(s.c.left, Integer)))
            .where(mine).group_by(s.c.game, s.c.place)).all()
        rules = conn.execute(
            select(s.c.game, played_games.c.rules, func.count().label("n"))
            .join(played_games, played_games.c.pk == s.c.game_pk)
            .where(mine).group_by(s.c.game, played_games.c.rules)).all()
        rated = conn.execute(select(ratings.c.game, ratings.c.shown, ratings.c.games)
                             .where(ratings.c.player_id == player_id)).all()
    games: dict[str, dict[str, Any]] = {}
    for game, place, count, left in counts:
        entry = games.setdefault(game, {"games": 0, "places": [], "wins": 0, "left": 0})
        entry["games"] += count
        entry["left"] += int(left or 0)
        entry["places"] += [0] * (place - len(entry["places"]))
        entry["places"][place - 1] += count
    for entry in games.values():
        entry["wins"] = entry["places"][0] if entry["places"] else 0
        entry["win_share"] = round(entry["wins"] / entry["games"], 4)
    favourite: dict[str, Counter[str]] = {}
    for game, key, count in rules:
        favourite.setdefault(game, Counter())[key] = count
    for game, counter in favourite.items():
        games[game]["favourite_rules"] = [
            {"rules": json.loads(key), "key": key, "games": n}
            for key, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:FAVOURITES]]
    for game, shown, count in rated:
        games.setdefault(game, {"games": 0, "places": [], "wins": 0, "left": 0,
                                "win_share": 0.0, "favourite_rules": []})
        games[game]["rating"] = {"shown": round(shown), "games": count,
                                 "provisional": count < PROVISIONAL_GAMES}
    for entry in games.values():
        entry.setdefault("rating", None)
        entry.setdefault("favourite_rules", [])
    return {"id": who.id, "kind": who.kind, "name": who.name, "games": games}


def _cursor(before: str) -> tuple[float, int]:
    try:
        finished, pk = before.split("_")
        return float(finished), int(pk)
    except ValueError:
        raise Refused("bad_request", f"before: not a cursor of this list: {before!r}",
                      400) from None


def _filtered(query: Select[Any], player_id: str, viewer: str | None,
              want: GameFilter) -> Select[Any]:
    s = played_seats
    query = query.where(s.c.player_id == player_id, _visible(player_id, viewer))
    if want.game is not None:
        query = query.where(s.c.game == want.game)
    if want.rules is not None:
        query = query.where(played_games.c.rules == want.rules)
    if want.result == "win":
        query = query.where(s.c.place == 1)
    elif want.result == "loss":
        query = query.where(s.c.place > 1)
    elif want.result == "left":
        query = query.where(s.c.left)
    elif want.result is not None:
        raise Refused("bad_request", f"result: one of {', '.join(RESULTS)}", 400)
    if want.before is not None:
        finished, pk = _cursor(want.before)
        query = query.where(or_(s.c.finished < finished,
                                and_(s.c.finished == finished, s.c.game_pk < pk)))
    return query


def game_list(store: Store, player_id: str, viewer: str | None,
              want: GameFilter) -> dict[str, Any]:
    """``player_id``'s games that ``viewer`` may see, newest first, a page of them
    (``next``: the cursor of the next page, None at the end)."""
    s, g = played_seats, played_games
    limit = max(1, min(want.limit, MAX_PAGE))
    query = _filtered(
        select(s.c.game_pk, s.c.finished, s.c.seat, s.c.place, s.c.left, s.c.name, s.c.bot,
               s.c.rating_before, s.c.rating_after, s.c.public, s.c.game, g.c.number,
               g.c.rules, g.c.players, g.c.rated, tables.c.public_id)
        .join(g, g.c.pk == s.c.game_pk).join(tables, tables.c.pk == g.c.table_pk),
        player_id, viewer, want)
    query = query.order_by(s.c.finished.desc(), s.c.game_pk.desc()).limit(limit + 1)
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
        more = len(rows) > limit
        rows = rows[:limit]
        seated: dict[int, list[dict[str, Any]]] = {}
        if rows:
            for r in conn.execute(select(s.c.game_pk, s.c.seat, s.c.name, s.c.player_id,
                                         s.c.bot, s.c.place, s.c.left)
                                  .where(s.c.game_pk.in_([r.game_pk for r in rows]))
                                  .order_by(s.c.game_pk, s.c.seat)):
                seated.setdefault(r.game_pk, []).append(
                    {"seat": r.seat, "name": r.name, "player_id": r.player_id,
                     "bot": r.bot, "place": r.place, "left": r.left})
    items = [game_item(r, seated.get(r.game_pk, [])) for r in rows]
    last = rows[-1] if rows else None
    return {"games": items,
            "next": f"{last.finished!r}_{last.game_pk}" if more and last is not None
            else None}


def game_item(r: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """One game of a list: the player's seat and result, everyone's, and its links."""
    table_id, number = r.public_id, r.number
    return {
        "table_id": table_id, "number": number, "game": r.game,
        "rules": json.loads(r.rules), "rules_key": r.rules, "players": r.players,
        "finished": r.finished, "rated": r.rated, "public": r.public,
        "seat": r.seat, "name": r.name, "bot": r.bot, "place": r.place, "left": r.left,
        "rating": None if r.rating_after is None
        else {"before": r.rating_before, "after": r.rating_after},
        "seats": seats,
        "links": {"record": f"/api/tables/{table_id}/games/{number}/record",
                  "replay": f"/replay.html?t={table_id}&game={number}",
                  "review": f"/replay.html?t={table_id}&game={number}&review=1"},
    }


def rating_history(store: Store, player_id: str, viewer: str | None,
                   game: str | None) -> list[dict[str, Any]]:
    """The player's rated games in order, for the graph: when, the rating before and
    after; the table and game only where ``viewer`` may see the game."""
    s, g = played_seats, played_games
    visible = _visible(player_id, viewer)
    query = (select(s.c.game, s.c.finished, s.c.rating_before, s.c.rating_after,
                    g.c.number, tables.c.public_id, visible.label("visible"))
             .join(g, g.c.pk == s.c.game_pk).join(tables, tables.c.pk == g.c.table_pk)
             .where(s.c.player_id == player_id, s.c.rating_after.is_not(None))
             .order_by(s.c.finished, s.c.game_pk))
    if game is not None:
        query = query.where(s.c.game == game)
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [{"game": r.game, "finished": r.finished, "before": r.rating_before,
             "after": r.rating_after,
             "table_id": r.public_id if r.visible else None,
             "number": r.number if r.visible else None} for r in rows]
