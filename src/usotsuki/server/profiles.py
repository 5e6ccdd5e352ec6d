"""Reading the games kept: a player's profile, game list and rating history.

Privacy: the games at a public table are anyone's to see; those at an invite-only table
only their players' (and whoever holds the table's link: its replay and review are
addressed by the table's id, which only its players' lists show). Someone else's
profile counts and lists only the games its viewer may see: the public ones and those
both played.

How it stays fast with many games kept: ``played_seats``' index orders each player's
rows by (game, public, finished). A list merges the newest rows of a few ranges of it,
each read in order and cut at the page's length: the player's own rows of each game and
visibility, or for someone else's viewer the player's public rows, and the private
games both played, found from the viewer's own range (a co-player's row has the same
game, visibility and time). The places' counts are read from the index alone.
``benchmarks/profiles.py`` times them with 100,000 games kept.

Blocking functions over the store (run through ``Store.call``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Integer,
    Select,
    Subquery,
    and_,
    cast,
    exists,
    func,
    or_,
    select,
    true,
    tuple_,
    union_all,
)

from usotsuki.core.game import GAMES
from usotsuki.server.config import Refused
from usotsuki.server.history import ARENA_PREFIX, ratings_module
from usotsuki.server.player_tables import (
    played_games,
    played_seats,
    player_places,
    players,
    ratings,
)
from usotsuki.server.store import Store, tables

RESULTS = ("win", "loss", "left")
"""The game list's ``result`` filter: first place, any other place, left mid-game."""
FAVOURITES = 3  # house rules shown per game on a profile
FAVOURITES_OVER = 200  # ... the most played in the player's latest games of each game
PAGE = 20  # games per page by default
MAX_PAGE = 100
HISTORY = 1000  # rating history points at most (the latest)
PROVISIONAL_GAMES = 10  # without the ratings' rule: fewer rated games are provisional


@dataclass(frozen=True, slots=True)
class GameFilter:
    game: str | None = None
    rules: str | None = None  # a rules key (history.rules_key), as profiles give them
    result: str | None = None  # one of RESULTS
    before: str | None = None  # the cursor of the previous page's last game
    limit: int = PAGE


def _cursor(before: str) -> tuple[float, int]:
    try:
        finished, pk = before.split("_")
        return float(finished), int(pk)
    except ValueError:
        raise Refused("bad_request", f"before: not a cursor of this list: {before!r}",
                      400) from None


def _ranges(player_id: str, viewer: str | None, want: GameFilter) -> list[Select[Any]]:
    """One ordered range of the index per game and visibility that ``viewer`` may see
    of ``player_id``'s rows: each the newest ``limit + 1`` rows (game_pk, seat,
    finished) passing ``want``'s filters."""
    if want.result is not None and want.result not in RESULTS:
        raise Refused("bad_request", f"result: one of {', '.join(RESULTS)}", 400)
    if want.game is not None and want.game not in GAMES:
        return []
    before = None if want.before is None else _cursor(want.before)
    s = played_seats
    ranges = []
    for game in GAMES if want.game is None else (want.game,):
        own = [True, False] if viewer == player_id else [True]
        for public in own:  # the player's rows of this visibility
            ranges.append(_range(select(s.c.game_pk, s.c.seat, s.c.finished)
                                 .where(s.c.player_id == player_id, s.c.game == game,
                                        s.c.public == public, *_filters(s, want)),
                                 s, want, before))
        if viewer is not None and viewer != player_id:  # private games both played
            # Read in the viewer's order, the player's seat sought in each game (a
            # subquery per row: no database may read either range whole to join them).
            mine = played_seats.alias("mine")
            seat = (select(s.c.seat).where(_same_game(mine, s, player_id), *_filters(s, want))
                    .limit(1).scalar_subquery())
            ranges.append(_range(select(mine.c.game_pk, seat.label("seat"), mine.c.finished)
                                 .where(mine.c.player_id == viewer, mine.c.game == game,
                                        mine.c.public.is_(False), seat.is_not(None)),
                                 mine, want, before))
    return ranges


def _same_game(mine: Any, seat: Any, player_id: str) -> ColumnElement[bool]:
    """``player_id``'s row of the game of ``mine``'s row: the whole key of the index,
    so that either side finds the other by one seek, whichever drives the join."""
    return and_(seat.c.player_id == player_id, seat.c.game == mine.c.game,
                seat.c.public == mine.c.public, seat.c.finished == mine.c.finished,
                seat.c.game_pk == mine.c.game_pk)


def _filters(seat: Any, want: GameFilter) -> list[ColumnElement[bool]]:
    """``want``'s conditions on a row of the player: its result, its game's rules."""
    conditions = []
    if want.result == "win":
        conditions.append(seat.c.place == 1)
    elif want.result == "loss":
        conditions.append(seat.c.place > 1)
    elif want.result == "left":
        conditions.append(seat.c.left.is_(True))
    if want.rules is not None:
        conditions.append(exists().where(played_games.c.pk == seat.c.game_pk,
                                         played_games.c.rules == want.rules))
    return conditions


def _range(query: Select[Any], order: Any, want: GameFilter,
           before: tuple[float, int] | None) -> Select[Any]:
    """``query`` in ``order``'s index order (newest first), after ``before``, cut at
    ``want.limit + 1``."""
    if before is not None:
        query = query.where(tuple_(order.c.finished, order.c.game_pk) < tuple_(*before))
    return query.order_by(order.c.finished.desc(), order.c.game_pk.desc()).limit(
        want.limit + 1)


def _merged(player_id: str, viewer: str | None, want: GameFilter) -> Subquery | None:
    """The ranges merged: the player's visible rows (game_pk, seat, finished), at least
    the newest ``want.limit + 1`` (None: none can be)."""
    ranges = _ranges(player_id, viewer, want)
    if not ranges:
        return None
    return union_all(*(select(*r.subquery().c) for r in ranges)).subquery()


def _page(conn: Connection, player_id: str, viewer: str | None,
          want: GameFilter) -> list[tuple[int, int, float]]:
    """The newest ``want.limit + 1`` (game_pk, seat, finished) of the player's visible
    rows."""
    merged = _merged(player_id, viewer, want)
    if merged is None:
        return []
    rows = conn.execute(select(merged.c.game_pk, merged.c.seat, merged.c.finished)
                        .order_by(merged.c.finished.desc(), merged.c.game_pk.desc(),
                                  merged.c.seat)
                        .limit(want.limit + 1)).all()
    return [(r.game_pk, r.seat, r.finished) for r in rows]


def game_list(store: Store, player_id: str, viewer: str | None,
              want: GameFilter) -> dict[str, Any]:
    """``player_id``'s games that ``viewer`` may see, newest first, a page of them
    (``next``: the cursor of the next page, None at the end)."""
    s, g = played_seats, played_games
    want = GameFilter(want.game, want.rules, want.result, want.before,
                      max(1, min(want.limit, MAX_PAGE)))
    with store.engine.connect() as conn:
        page = _page(conn, player_id, viewer, want)
        more = len(page) > want.limit
        page = page[:want.limit]
        rows = [] if not page else conn.execute(  # every seat of the page's games
            select(s.c.game_pk, s.c.finished, s.c.seat, s.c.player_id, s.c.place, s.c.left,
                   s.c.name, s.c.bot, s.c.rating_before, s.c.rating_after, s.c.public,
                   s.c.game, g.c.number, g.c.rules, g.c.players, g.c.rated, g.c.arena,
                   tables.c.public_id)
            .join(g, g.c.pk == s.c.game_pk).join(tables, tables.c.pk == g.c.table_pk)
            .where(s.c.game_pk.in_({pk for pk, _, _ in page}))
            .order_by(s.c.game_pk, s.c.seat)).all()
    by_seat = {(r.game_pk, r.seat): r for r in rows}
    seated: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        seated.setdefault(r.game_pk, []).append(
            {"seat": r.seat, "name": r.name, "player_id": r.player_id, "bot": r.bot,
             "place": r.place, "left": r.left})
    items = [game_item(by_seat[pk, seat], seated[pk]) for pk, seat, _ in page]
    last = page[-1] if page else None
    return {"games": items,
            "next": f"{last[2]!r}_{last[0]}" if more and last is not None else None}


def game_item(r: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """One game of a list: the player's seat and result, everyone's, and its links."""
    table_id, number = r.public_id, r.number
    return {
        "table_id": table_id, "number": number, "game": r.game,
        "rules": json.loads(r.rules), "rules_key": r.rules, "players": r.players,
        "finished": r.finished, "rated": r.rated, "arena": r.arena, "public": r.public,
        "seat": r.seat, "name": r.name, "bot": r.bot, "place": r.place, "left": r.left,
        "rating": None if r.rating_after is None
        else {"before": r.rating_before, "after": r.rating_after},
        "seats": seats,
        "links": {"record": f"/api/tables/{table_id}/games/{number}/record",
                  "replay": f"/replay.html?t={table_id}&game={number}",
                  "review": f"/replay.html?t={table_id}&game={number}&review=1"},
    }


# the profile

def _place_counts(conn: Connection, player_id: str, viewer: str | None
                  ) -> list[tuple[str, int, int, int]]:
    """(game, place, games, of them left) over the games ``viewer`` may see."""
    counted = player_places
    query = select(counted.c.game, counted.c.place, counted.c.games, counted.c.left).where(
        counted.c.player_id == player_id)
    if viewer == player_id:
        return [tuple(r) for r in conn.execute(query)]
    rows = [tuple(r) for r in conn.execute(query.where(counted.c.public.is_(True)))]
    if viewer is not None:  # the private games both played: counted from the index
        s = played_seats
        both = (select(s.c.game, s.c.place, func.count(), func.sum(cast(s.c.left, Integer)))
                .group_by(s.c.game, s.c.place))
        mine = played_seats.alias("mine")
        rows += [tuple(r) for r in conn.execute(
            both.select_from(mine).join(s, _same_game(mine, s, player_id))
            .where(mine.c.player_id == viewer, mine.c.public.is_(False)))]
    return rows


def _favourite_rules(conn: Connection, player_id: str, viewer: str | None,
                     game: str) -> list[dict[str, Any]]:
    """The house rules most played in the player's latest games of ``game``."""
    merged = _merged(player_id, viewer, GameFilter(game=game, limit=FAVOURITES_OVER - 1))
    if merged is None:
        return []
    latest = (select(merged.c.game_pk)
              .order_by(merged.c.finished.desc(), merged.c.game_pk.desc())
              .limit(FAVOURITES_OVER).subquery())
    g = played_games
    counts = conn.execute(select(g.c.rules, func.count().label("n"))
                          .join(latest, latest.c.game_pk == g.c.pk)
                          .group_by(g.c.rules)
                          .order_by(func.count().desc(), g.c.rules).limit(FAVOURITES)).all()
    return [{"rules": json.loads(key), "key": key, "games": n} for key, n in counts]


def profile(store: Store, player_id: str, viewer: str | None) -> dict[str, Any] | None:
    """The player's name, kind, whether a bot plays it and, per game, what ``viewer``
    may see of their games: count, places, win share, favourite house rules, and rating
    (None: no such player)."""
    with store.engine.connect() as conn:
        who = conn.execute(select(players.c.id, players.c.kind, players.c.name, players.c.bot)
                           .where(players.c.id == player_id)).first()
        if who is None:
            return None
        games: dict[str, dict[str, Any]] = {}
        for game, place, count, left in _place_counts(conn, player_id, viewer):
            entry = games.setdefault(game, {"games": 0, "places": [], "left": 0})
            entry["games"] += count
            entry["left"] += int(left or 0)
            entry["places"] += [0] * (place - len(entry["places"]))
            entry["places"][place - 1] += count
        rated = conn.execute(select(ratings.c.game, ratings.c.shown, ratings.c.sigma,
                                    ratings.c.games)
                             .where(ratings.c.player_id == player_id)).all()
        settled = getattr(ratings_module(), "provisional", None)  # the ratings' own rule
        arena: dict[str, dict[str, Any]] = {}
        for game, shown, sigma, count in rated:
            rating = {"shown": round(shown), "games": count,
                      "provisional": bool(settled(sigma, count)) if settled is not None
                      else count < PROVISIONAL_GAMES}
            if game.startswith(ARENA_PREFIX):  # the arena's pool, apart from the people's
                arena[game.removeprefix(ARENA_PREFIX)] = rating
            else:
                games.setdefault(game, {"games": 0, "places": [], "left": 0})["rating"] = rating
        for game, entry in games.items():
            entry["wins"] = entry["places"][0] if entry["places"] else 0
            entry["win_share"] = round(entry["wins"] / entry["games"], 4) if entry["games"] \
                else 0.0
            entry["favourite_rules"] = _favourite_rules(conn, player_id, viewer, game) \
                if entry["games"] else []
            entry.setdefault("rating", None)
    # ``bot``: a house bot's level, or an account marked a bot (an outside bot)
    return {"id": who.id, "kind": who.kind, "name": who.name,
            "bot": who.kind == "bot" or bool(who.bot), "games": games, "arena": arena}


def rating_history(store: Store, player_id: str, viewer: str | None,
                   game: str | None) -> list[dict[str, Any]]:
    """The player's latest rated games (at most ``HISTORY``), oldest first, for the
    graph: when, the rating before and after; the table and game only where ``viewer``
    may see the game. The people's pool, or with ``game`` ``arena:<game>`` the arena's."""
    s, g = played_seats, played_games
    mine = played_seats.alias("mine")
    shown: ColumnElement[bool] = true() if viewer == player_id else (
        s.c.public.is_(True) if viewer is None else
        or_(s.c.public.is_(True), s.c.game_pk.in_(
            select(mine.c.game_pk).where(mine.c.player_id == viewer))))
    query = (select(s.c.game, s.c.finished, s.c.rating_before, s.c.rating_after,
                    g.c.number, tables.c.public_id, shown.label("visible"))
             .join(g, g.c.pk == s.c.game_pk).join(tables, tables.c.pk == g.c.table_pk)
             .where(s.c.player_id == player_id, s.c.rating_after.is_not(None))
             .order_by(s.c.finished.desc(), s.c.game_pk.desc()).limit(HISTORY))
    arena = game is not None and game.startswith(ARENA_PREFIX)
    query = query.where(g.c.arena.is_(arena))
    if game is not None:
        query = query.where(s.c.game == game.removeprefix(ARENA_PREFIX))
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [{"game": r.game, "finished": r.finished, "before": r.rating_before,
             "after": r.rating_after,
             "table_id": r.public_id if r.visible else None,
             "number": r.number if r.visible else None} for r in reversed(rows)]
