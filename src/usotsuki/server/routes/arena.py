"""The arena: a bot's seek (``/api/bot/seek``, a token with the ``play`` scope), the
arena's leaderboard per game (``/api/arena/{game}``) and its page (``/arena``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from usotsuki.games import ENTRIES
from usotsuki.server import schemas
from usotsuki.server.arena import Arena, ArenaSeek
from usotsuki.server.arena_board import leaderboard
from usotsuki.server.bot_auth import BotCaller, bot_required
from usotsuki.server.config import Refused
from usotsuki.server.routes.app_state import store_of

STATIC = Path(__file__).resolve().parents[1] / "static"

router = APIRouter(prefix="/api", tags=["arena"], responses={
    400: {"model": schemas.Problem}, 401: {"model": schemas.Problem},
    403: {"model": schemas.Problem}, 409: {"model": schemas.Problem},
    429: {"model": schemas.Problem}})
pages = APIRouter(include_in_schema=False)

PlayingBot = Annotated[BotCaller, Depends(bot_required("play"))]


class SeekRequest(BaseModel):
    game: Literal["bluff", "liar"] = "bluff"
    players: int | None = Field(None, ge=2, le=8, description="Seats: 2 to 8, or null "
                                "for any (a table of up to 4, as other bots wait).")
    preset: str = Field("standard", max_length=32, description="A rules preset of quick "
                        "match (GET /api/match/presets).")
    rated: bool = Field(True, description="Rated in the arena's pool (arena:<game>).")


class SeekStatus(BaseModel):
    state: Literal["idle", "waiting", "seated"] = Field(description="idle: no seek; "
                                                        "waiting; seated (its game event "
                                                        "sent).")
    game: str | None = None
    players: int | None = None
    preset: str | None = None
    rated: bool | None = None
    waited: float | None = Field(None, description="Seconds waited (waiting).")
    table_id: str | None = Field(None, description="The table of its last seat (seated).")


class Share(BaseModel):
    games: int = Field(description="Meetings with the level in rated arena games.")
    share: float = Field(description="Of them won: 1 ahead, 1/2 tied, 0 behind.")


class ArenaEntry(BaseModel):
    rank: int
    player_id: str = Field(description="The profile's id (/api/players/{id}).")
    kind: Literal["bot", "house"] = Field(description="An outside bot, or a house level.")
    name: str | None = Field(description="The bot account's name; a house bot's level.")
    house: str | None = Field(description="A house bot's level; null for an outside bot.")
    shown: float = Field(description="The arena rating, on the 1500-centred scale.")
    low: float = Field(description="Its 95% interval's low end.")
    high: float = Field(description="Its 95% interval's high end.")
    games: int = Field(description="Rated arena games played.")
    provisional: bool = Field(description="Not settled yet (docs/ratings.md).")
    against: dict[str, Share] = Field(description="Win share against each house level "
                                      "met (easy, normal, hard, expert).")


class ArenaBoard(BaseModel):
    game: str
    entries: list[ArenaEntry]


def _arena(request: Request) -> Arena:
    arena: Arena = request.app.state.arena
    return arena


@router.post("/bot/seek", status_code=202, response_model=SeekStatus,
             response_model_exclude_none=True)
async def seek(body: SeekRequest, request: Request, bot: PlayingBot) -> dict[str, Any]:
    """Wait in the arena for a game: seated with other seeking bots and house bots, told
    by a ``game`` event (GET /api/bot/events). A seek lasts until seated, cancelled, or
    30 s without a poll of the events; a new one replaces a waiting one."""
    spec = ArenaSeek(bot.player.id, bot.player.name, body.game, body.players, body.preset,
                     body.rated)
    return await _arena(request).seek(spec)


@router.get("/bot/seek", response_model=SeekStatus, response_model_exclude_none=True)
async def seek_status(request: Request, bot: PlayingBot) -> dict[str, Any]:
    """The bot's seek: idle, waiting, or seated (the table of its latest seat)."""
    return await _arena(request).status(bot.player.id)


@router.delete("/bot/seek", status_code=204)
async def cancel(request: Request, bot: PlayingBot) -> None:
    """Stop waiting (409 while its table is being made: the game event follows)."""
    await _arena(request).cancel(bot.player.id)


@router.get("/arena/{game}", response_model=ArenaBoard)
async def board(request: Request, game: str,
                limit: int = Query(100, ge=1, le=500)) -> ArenaBoard:
    """The arena's leaderboard at ``bluff`` or ``liar``: every bot rated in the arena's
    pool, house levels included, with its 95% interval, games and win share against
    each house level (docs/bots.md)."""
    if game not in ENTRIES:
        raise Refused("not_found", f"unknown game {game!r}", 404)
    store = store_of(request)
    entries = await store.call(leaderboard, store.engine, game, limit)
    return ArenaBoard(game=game, entries=[ArenaEntry(**e) for e in entries])


@pages.get("/arena")
async def arena_page() -> FileResponse:
    """The arena's leaderboard page (the page asks ``/api/arena/{game}``)."""
    return FileResponse(STATIC / "arena.html")
