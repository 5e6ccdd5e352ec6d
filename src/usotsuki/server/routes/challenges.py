"""Challenges (docs/bots.md): from a person's browser (session cookie + CSRF) or a bot's
API token alike. A token needs the ``challenge`` scope to challenge or withdraw, ``play``
to answer; a bot account's browser session takes no part (403 ``bot_account``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials

from usotsuki.server import schemas
from usotsuki.server.bot_auth import SCOPES_STATE, bearer, caller, refuse_bot_account
from usotsuki.server.challenge_store import Spec, set_takes_bots
from usotsuki.server.challenges import Challenges
from usotsuki.server.config import Refused
from usotsuki.server.player_store import Player
from usotsuki.server.sanctions import refuse_if_banned

router = APIRouter(prefix="/api/challenges", tags=["challenges"], responses={
    400: {"model": schemas.Problem}, 401: {"model": schemas.Problem},
    403: {"model": schemas.Problem}, 404: {"model": schemas.Problem},
    409: {"model": schemas.Problem}, 429: {"model": schemas.Problem}})

MAX_WAIT = 25.0  # seconds a read may wait (proxies' read timeouts are longer)


def _by(scope: str | None) -> Callable[..., Awaitable[Player]]:
    """A dependency: the request's player (a person's session, or a bot's token that
    has ``scope``)."""

    async def dependency(request: Request, _token: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Player:
        player = await caller(request)
        if player is None:
            raise Refused("no_player", "no player: GET /api/me first, then send its "
                          "cookie (a bot: its token)", 401)
        scopes = getattr(request.state, SCOPES_STATE, None)
        if scopes is None:
            refuse_bot_account(player)
        elif scope is not None and scope not in scopes:
            raise Refused("scope", f"this token lacks the scope {scope!r}", 403,
                          {"scope": scope})
        return player

    return dependency


Anyone = Annotated[Player, Depends(_by(None))]
Challenger = Annotated[Player, Depends(_by("challenge"))]
Answerer = Annotated[Player, Depends(_by("play"))]


def _challenges(request: Request) -> Challenges:
    service: Challenges = request.app.state.challenges
    return service


async def _not_banned(request: Request, player: Player) -> None:
    await refuse_if_banned(request.app.state.store, player.id,
                           request.app.state.lobby.clock.time())


@router.post("", status_code=201, response_model=schemas.Challenge,
             response_model_exclude_none=True)
async def challenge(body: schemas.ChallengeRequest, request: Request,
                    player: Challenger) -> dict[str, Any]:
    """Challenge a player: a bot (a house bot accepts at once: the answer holds your
    seat), or a person who takes bots' challenges (from a bot). It stays open 2 minutes;
    one open between two players, 3 open per challenger; a house bot's table counts
    against your address's table quotas (429 ``too_many_tables``)."""
    await _not_banned(request, player)
    spec = Spec(body.game, body.players, body.preset, body.turn_seconds)
    address = request.client.host if request.client is not None else None
    return await _challenges(request).challenge(player, body.to, spec, address)


@router.get("", response_model=schemas.Challenges, response_model_exclude_none=True)
async def listing(request: Request, player: Anyone) -> dict[str, Any]:
    """Your open challenges, to you and from you."""
    return await _challenges(request).listing(player)


@router.put("/settings", response_model=schemas.BotChallengesSetting)
async def settings(body: schemas.BotChallengesSetting, request: Request,
                   player: Anyone) -> dict[str, Any]:
    """Take challenges from bots, or not (accounts only: the Account page's switch)."""
    if player.kind != "account" or player.bot:
        raise Refused("not_account", "only a person's account can take bots' challenges: "
                      "sign up first", 409)
    store = request.app.state.store
    await store.call(set_takes_bots, store.engine, player.id, body.from_bots)
    return {"from_bots": body.from_bots}


@router.get("/to/{player_id}", response_model=schemas.ChallengeOptions)
async def options(player_id: str, request: Request, player: Anyone) -> dict[str, Any]:
    """Whether you may challenge this player (refused as a challenge would be), and the
    games, presets and time per move one may ask for."""
    return await _challenges(request).options(player, player_id)


@router.get("/{challenge_id}", response_model=schemas.Challenge,
            response_model_exclude_none=True)
async def one(challenge_id: str, request: Request, player: Anyone,
              wait: Annotated[float, Query(ge=0.0, le=MAX_WAIT, description="Seconds to "
                                           "wait while it is open.")] = 0.0
              ) -> dict[str, Any]:
    """A challenge of yours; with ``wait``, once answered. The challenger's seat comes
    with the first read after acceptance, and only with it."""
    return await _challenges(request).one(player, challenge_id, wait)


@router.post("/{challenge_id}/accept", response_model=schemas.SeatGiven)
async def accept(challenge_id: str, request: Request, player: Answerer) -> dict[str, Any]:
    """Accept a challenge to you: the table is made and its game begun; your seat."""
    await _not_banned(request, player)
    return await _challenges(request).accept(player, challenge_id)


@router.post("/{challenge_id}/decline", status_code=204)
async def decline(challenge_id: str, request: Request, player: Answerer) -> None:
    """Decline a challenge to you."""
    await _challenges(request).decline(player, challenge_id)


@router.delete("/{challenge_id}", status_code=204)
async def withdraw(challenge_id: str, request: Request, player: Challenger) -> None:
    """Withdraw your open challenge."""
    await _challenges(request).withdraw(player, challenge_id)
