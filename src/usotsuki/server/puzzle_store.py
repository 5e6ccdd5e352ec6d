"""Puzzle ratings in the database (``puzzle_players``, ``puzzle_ratings``): each player's
Glicko-2 rating per game and best streak, each puzzle's rating as people meet it.

An attempt updates both ratings in one transaction; the puzzle's row is read ``FOR
UPDATE`` (PostgreSQL), so two players answering one puzzle on two workers each move it.
A puzzle without a row has its shipped rating.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, insert, select, update

from usotsuki.analysis.glicko2 import Rating, attempt
from usotsuki.server.meet_tables import puzzle_players, puzzle_ratings


def player_rating(engine: Engine, player_id: str, game: str) -> dict[str, Any]:
    """The player's puzzle rating, attempts and best streak at ``game`` (a new rating
    before the first attempt)."""
    with engine.connect() as conn:
        row = conn.execute(select(puzzle_players).where(
            puzzle_players.c.player_id == player_id,
            puzzle_players.c.game == game)).first()
    if row is None:
        return {"rating": Rating().to_json(), "attempts": 0, "best_streak": 0}
    return {"rating": Rating(row.rating, row.rd, row.volatility).to_json(),
            "attempts": row.attempts, "best_streak": row.best_streak}


def puzzle_rating(engine: Engine, puzzle_id: str, shipped: Rating) -> Rating:
    with engine.connect() as conn:
        row = conn.execute(select(puzzle_ratings).where(
            puzzle_ratings.c.puzzle_id == puzzle_id)).first()
    return shipped if row is None else Rating(row.rating, row.rd, row.volatility)


def record_attempt(engine: Engine, player_id: str, game: str, puzzle_id: str,
                   shipped: Rating, solved: bool, now: float) -> tuple[Rating, Rating]:
    """One rated attempt: the player's rating before and after (the puzzle's moves the
    other way)."""
    with engine.begin() as conn:
        p_row = conn.execute(select(puzzle_ratings).where(
            puzzle_ratings.c.puzzle_id == puzzle_id).with_for_update()).first()
        puzzle = shipped if p_row is None else Rating(p_row.rating, p_row.rd, p_row.volatility)
        me_row = conn.execute(select(puzzle_players).where(
            puzzle_players.c.player_id == player_id,
            puzzle_players.c.game == game).with_for_update()).first()
        me = Rating() if me_row is None else Rating(me_row.rating, me_row.rd,
                                                    me_row.volatility)
        after, puzzle_after = attempt(me, puzzle, solved)
        values = {"rating": puzzle_after.rating, "rd": puzzle_after.rd,
                  "volatility": puzzle_after.volatility}
        if p_row is None:
            conn.execute(insert(puzzle_ratings).values(puzzle_id=puzzle_id, attempts=1,
                                                       solved=int(solved), **values))
        else:
            conn.execute(update(puzzle_ratings).where(
                puzzle_ratings.c.puzzle_id == puzzle_id).values(
                attempts=p_row.attempts + 1, solved=p_row.solved + int(solved), **values))
        mine = {"rating": after.rating, "rd": after.rd, "volatility": after.volatility,
                "updated": now}
        if me_row is None:
            conn.execute(insert(puzzle_players).values(player_id=player_id, game=game,
                                                       attempts=1, best_streak=0, **mine))
        else:
            conn.execute(update(puzzle_players).where(
                puzzle_players.c.player_id == player_id,
                puzzle_players.c.game == game).values(attempts=me_row.attempts + 1, **mine))
    return me, after


def record_streak(engine: Engine, player_id: str, game: str, streak: int, now: float) -> int:
    """Keep a finished streak if it is the player's best; returns the best."""
    with engine.begin() as conn:
        row = conn.execute(select(puzzle_players).where(
            puzzle_players.c.player_id == player_id,
            puzzle_players.c.game == game).with_for_update()).first()
        if row is None:
            fresh = Rating()
            conn.execute(insert(puzzle_players).values(
                player_id=player_id, game=game, rating=fresh.rating, rd=fresh.rd,
                volatility=fresh.volatility, attempts=0, best_streak=streak, updated=now))
            return streak
        best = max(int(row.best_streak), streak)
        conn.execute(update(puzzle_players).where(
            puzzle_players.c.player_id == player_id,
            puzzle_players.c.game == game).values(best_streak=best, updated=now))
        return best
