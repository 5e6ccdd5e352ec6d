"""Who a Bot API request comes from: ``Authorization: Bearer <token>`` names a bot.

The token is looked up on every request (bot_tokens.py: no cache outlives a request),
so a revoked token is refused at once by every worker; each request counts against the
token's rate (bot_rate.py). A request with a token and no cookie needs no CSRF token:
another site's page cannot make a browser send an ``Authorization`` header. The token
never reaches a log: it travels in a header (access logs hold paths), and no refusal
repeats it.

Routes for bots alone depend on :func:`bot_required`; routes serving people and bots
alike (challenges) ask :func:`caller`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from usotsuki.server.bot_rate import TokenRates
from usotsuki.server.bot_tokens import find_token
from usotsuki.server.config import Refused
from usotsuki.server.identity import current_player
from usotsuki.server.player_store import Player
from usotsuki.server.store import Store

__all__ = ["SCOPES_STATE", "BotCaller", "bearer", "bot_required", "caller", "refuse_bot_account"]

SCOPES_STATE = "bot_scopes"  # request.state: the token's scopes, for routes using caller()

bearer = HTTPBearer(auto_error=False, scheme_name="BotToken", description=(
    "A bot account's API token (POST /api/account/tokens): "
    "`Authorization: Bearer <token>`."))


@dataclass(frozen=True, slots=True)
class BotCaller:
    """A Bot API request's bot and the token it used."""

    player: Player
    token_id: str
    scopes: frozenset[str]


async def _authenticate(request: Request, secret: str) -> BotCaller:
    """The bot of this token, its request counted against the token's rate: 401
    ``bad_token`` (unknown, revoked, its account deleted), 403 ``not_a_bot``, 429
    ``too_many_requests``."""
    store: Store = request.app.state.store
    found = await store.call(find_token, store.engine, secret,
                             request.app.state.lobby.clock.time())
    if found is None:
        raise Refused("bad_token", "this API token is unknown or revoked", 401)
    player, token = found
    if not player.bot:
        raise Refused("not_a_bot", "this token's account is not a bot (POST "
                      "/api/account/bot marks it)", 403)
    rates: TokenRates = request.app.state.token_rates
    await rates.check(token.id, token.per_minute)
    return BotCaller(player, token.id, token.scopes)


def _secret(request: HTTPConnection,
            credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The request's Bearer token; 401 ``bad_token`` for an ``Authorization`` header of
    another kind."""
    if credentials is None and "authorization" in request.headers:
        raise Refused("bad_token", "the Authorization header must be "
                      "'Bearer <token>'", 401)
    return None if credentials is None else credentials.credentials


def bot_required(scope: str | None) -> Callable[..., Awaitable[BotCaller]]:
    """A FastAPI dependency: the request's bot, whose token has ``scope`` (None: any
    token); 401 ``bad_token`` without a valid token, 403 ``scope`` without the scope
    (and as :func:`_authenticate`)."""

    async def dependency(request: Request, credentials: Annotated[
            HTTPAuthorizationCredentials | None, Depends(bearer)]) -> BotCaller:
        secret = _secret(request, credentials)
        if secret is None:
            raise Refused("bad_token", "this call needs a bot's API token: "
                          "'Authorization: Bearer <token>'", 401)
        bot = await _authenticate(request, secret)
        if scope is not None and scope not in bot.scopes:
            raise Refused("scope", f"this token lacks the scope {scope!r}", 403,
                          {"scope": scope})
        return bot

    return dependency


async def caller(request: Request) -> Player | None:
    """The request's player: a bot's, from its Bearer token (the token's scopes then in
    ``request.state.bot_scopes``), else the session cookie's (None without either)."""
    secret = _secret(request, await bearer(request))
    if secret is None:
        return await current_player(request)
    bot = await _authenticate(request, secret)
    setattr(request.state, SCOPES_STATE, bot.scopes)
    return bot.player


def refuse_bot_account(player: Player | None) -> None:
    """Refuse (403 ``bot_account``) a bot account taking a seat as a person: a bot plays
    the seats the arena or a challenge give it, through its token."""
    if player is not None and player.bot:
        raise Refused("bot_account", "a bot account plays through its API token, never "
                      "as a person (docs/bots.md)", 403)
