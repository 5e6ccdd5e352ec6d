"""Ratings: the leaderboard of each game."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from usotsuki.games import ENTRIES
from usotsuki.server import schemas
from usotsuki.server.config import Refused
from usotsuki.server.ratings import leaderboard as best_ratings
from usotsuki.server.store import Store

router = APIRouter(prefix="/api", responses={404: {"model": schemas.Problem}})


@router.get("/leaderboard/{game}", response_model=schemas.Leaderboard)
async def leaderboard(request: Request, game: str,
                      limit: int = Query(50, ge=1, le=200),
                      provisional: bool = Query(False, description="List provisional "
                                                "ratings too (each marked).")
                      ) -> schemas.Leaderboard:
    """The highest ratings at ``bluff`` or ``liar``: accounts and bots, settled ratings
    only unless ``provisional`` (docs/ratings.md)."""
    if game not in ENTRIES:
        raise Refused("not_found", f"unknown game {game!r}", 404)
    store: Store = request.app.state.store
    entries = await store.call(best_ratings, store.engine, game, limit, provisional)
    return schemas.Leaderboard(game=game, entries=[schemas.LeaderboardEntry(**e)
                                                   for e in entries])
