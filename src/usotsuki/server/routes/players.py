"""Players' profiles, game lists and rating histories (the games kept: profiles.py).

Each answer holds what its viewer (the session's player, if any) may see: someone
else's invite-only games only if the viewer played in them too.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from usotsuki.server import schemas
from usotsuki.server.config import Refused
from usotsuki.server.identity import Player, current_player, player_required
from usotsuki.server.profiles import MAX_PAGE, PAGE, GameFilter, game_list, profile, rating_history
from usotsuki.server.routes.app_state import store_of

router = APIRouter(prefix="/api", responses={
    400: {"model": schemas.Problem}, 401: {"model": schemas.Problem},
    404: {"model": schemas.Problem}})



async def _viewer(request: Request) -> str | None:
    player = await current_player(request)
    return None if player is None else player.id


@router.get("/players/{player_id}")
async def get_profile(player_id: str, request: Request) -> dict[str, Any]:
    """A player's name and kind and, per game, the games its viewer may see: count,
    places, win share, favourite house rules; and the rating (shown, provisional,
    games)."""
    store = store_of(request)
    found = await store.call(profile, store, player_id, await _viewer(request))
    if found is None:
        raise Refused("not_found", "no such player", 404)
    return found


@router.get("/players/{player_id}/games")
async def player_games(player_id: str, request: Request, game: str | None = None,
                       rules: str | None = None, result: str | None = None,
                       before: str | None = None,
                       limit: int = Query(PAGE, ge=1, le=MAX_PAGE)) -> dict[str, Any]:
    """The player's games its viewer may see, newest first: ``game`` (bluff, liar),
    ``rules`` (a rules key from the profile), ``result`` (win, loss, left); ``before``:
    the previous page's ``next``. Each links its record, replay and review."""
    store = store_of(request)
    want = GameFilter(game, rules, result, before, limit)
    return await store.call(game_list, store, player_id, await _viewer(request), want)


@router.get("/players/{player_id}/ratings")
async def player_ratings(player_id: str, request: Request,
                         game: str | None = None) -> list[dict[str, Any]]:
    """The player's rating after each rated game, oldest first (for the graph)."""
    store = store_of(request)
    return await store.call(rating_history, store, player_id, await _viewer(request), game)


@router.get("/me/games")
async def my_games(request: Request, me: Annotated[Player, Depends(player_required)],
                   game: str | None = None, rules: str | None = None,
                   result: str | None = None, before: str | None = None,
                   limit: int = Query(PAGE, ge=1, le=MAX_PAGE)) -> dict[str, Any]:
    """Your own games (those at invite-only tables too), newest first; filters and
    paging as a player's games."""
    store = store_of(request)
    return await store.call(game_list, store, me.id, me.id,
                            GameFilter(game, rules, result, before, limit))
