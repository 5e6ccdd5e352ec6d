"""Quick match ("Play now"): seek, status (a long poll), cancel, accept bots."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from usotsuki.server import schemas
from usotsuki.server.bot_auth import refuse_bot_account
from usotsuki.server.config import Refused
from usotsuki.server.identity import Player, player_required
from usotsuki.server.matching import PRESETS
from usotsuki.server.matchmaking import Matchmaker, SeekSpec
from usotsuki.server.sanctions import refuse_if_banned

router = APIRouter(prefix="/api/match", responses={
    400: {"model": schemas.Problem}, 401: {"model": schemas.Problem},
    403: {"model": schemas.Problem}, 409: {"model": schemas.Problem}})

Seeker = Annotated[Player, Depends(player_required)]
MAX_WAIT = 25.0  # seconds a status request may wait (proxies' read timeouts are longer)


def _matchmaker(request: Request) -> Matchmaker:
    matchmaker: Matchmaker = request.app.state.matchmaker
    return matchmaker


@router.get("/presets")
def presets() -> dict[str, dict[str, dict[str, Any]]]:
    """The rules presets of quick match, per game (each a table's rules)."""
    return PRESETS


@router.post("", response_model=schemas.MatchStatus, response_model_exclude_none=True)
async def seek(body: schemas.SeekRequest, request: Request,
               player: Seeker) -> dict[str, Any]:
    """Play now: wait for a table of players near your rating (a new seek replaces a
    waiting one). Refused while you are being seated or play at a quick-match table."""
    refuse_bot_account(player)  # a bot seeks arena games (POST /api/bot/seek)
    if body.rated and player.kind != "account":
        raise Refused("account_required", "rated games are for accounts: sign up or log "
                      "in to play rated", 403)
    await refuse_if_banned(request.app.state.store, player.id,
                           request.app.state.lobby.clock.time())
    spec = SeekSpec(body.game, body.players, body.preset, body.rated, body.bots)
    return await _matchmaker(request).seek(player.id, player.name, spec)


@router.get("", response_model=schemas.MatchStatus, response_model_exclude_none=True)
async def status(request: Request, player: Seeker,
                 wait: Annotated[float, Query(ge=0.0, le=MAX_WAIT, description="Seconds to "
                                              "wait for a change (matched, bots offered).")
                                 ] = 0.0) -> dict[str, Any]:
    """Your quick match. Asking keeps a seek alive: one not asked about for 30 s ends."""
    return await _matchmaker(request).status(player.id, wait)


@router.delete("", status_code=204)
async def cancel(request: Request, player: Seeker) -> None:
    """Stop waiting (409 once a table is being made for you: your seat follows)."""
    await _matchmaker(request).cancel(player.id)


@router.post("/bots", response_model=schemas.MatchStatus, response_model_exclude_none=True)
async def accept_bots(request: Request,
                      player: Seeker) -> dict[str, Any]:
    """Fill the empty seats with bots now: seated with the people waiting who agree."""
    return await _matchmaker(request).accept_bots(player.id)
