"""The arena's leaderboard (``GET /api/arena/{game}``): every bot rated in the arena's
pool (``arena:<game>``), outside bots and the house levels alike, with its rating's 95%
interval, its rated arena games and its win share against each house level.

The win share against a level counts the rated arena games in which the bot and that
level sat at one table: each meeting scores 1 when the bot placed ahead of the level's
seat, 1/2 on a tie, 0 behind; the share is the mean (two seats of one level at a table
are two meetings). Blocking functions over the store (run through ``Store.call``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, and_, case, func, or_, select

from usotsuki.server.arena import house_levels
from usotsuki.server.history import BOT_PREFIX, bot_player, rating_pool
from usotsuki.server.player_tables import played_games, played_seats, players, ratings
from usotsuki.server.ratings import is_bot, provisional, shown

Z95 = 1.959964  # the normal distribution's 97.5th percentile: a two-sided 95% interval


def interval(mu: float, sigma: float) -> tuple[float, float]:
    """The 95% interval of a skill estimate, on the shown scale."""
    return shown(mu - Z95 * sigma), shown(mu + Z95 * sigma)


def leaderboard(engine: Engine, game: str, limit: int) -> list[dict[str, Any]]:
    """The arena's best ``limit`` bots at ``game``, highest rating first (provisional
    ones marked), each with its interval and win shares by house level."""
    pool = rating_pool(game, True)
    query = (select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games,
                    ratings.c.shown, players.c.name)
             .select_from(ratings.outerjoin(players, players.c.id == ratings.c.player_id))
             .where(ratings.c.game == pool, ratings.c.games > 0,
                    or_(players.c.deleted.is_(None), ratings.c.player_id.startswith(BOT_PREFIX)))
             .order_by(ratings.c.shown.desc(), ratings.c.games.desc(), ratings.c.player_id)
             .limit(limit))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
        shares = _win_shares(conn, game, [r.player_id for r in rows])
    board = []
    for rank, r in enumerate(rows, 1):
        house = r.player_id.split(":", 2)[2] if is_bot(r.player_id) else None
        low, high = interval(r.mu, r.sigma)
        board.append({"rank": rank, "player_id": r.player_id,
                      "kind": "house" if house is not None else "bot",
                      "name": r.name if house is None else house, "house": house,
                      "shown": r.shown, "low": low, "high": high, "games": r.games,
                      "provisional": provisional(r.sigma, r.games),
                      "against": shares.get(r.player_id, {})})
    return board


def _win_shares(conn: Any, game: str, ids: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per player of ``ids``, per house level met: meetings and the share won."""
    if not ids:
        return {}
    levels = {bot_player(game, level): level for level in house_levels(game)}
    mine, theirs = played_seats.alias("mine"), played_seats.alias("theirs")
    score = case((mine.c.place < theirs.c.place, 1.0),
                 (mine.c.place == theirs.c.place, 0.5), else_=0.0)
    rows = conn.execute(
        select(mine.c.player_id, theirs.c.player_id.label("level"),
               func.count().label("met"), func.sum(score).label("won"))
        .select_from(mine.join(played_games, and_(
            played_games.c.pk == mine.c.game_pk, played_games.c.arena.is_(True),
            played_games.c.rated.is_(True)))
            .join(theirs, and_(theirs.c.game_pk == mine.c.game_pk,
                               theirs.c.seat != mine.c.seat)))
        .where(mine.c.player_id.in_(ids), mine.c.game == game,
               theirs.c.player_id.in_(list(levels)))
        .group_by(mine.c.player_id, theirs.c.player_id)).all()
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r.player_id, {})[levels[r.level]] = {
            "games": int(r.met), "share": round(float(r.won) / int(r.met), 4)}
    return out
