"""Who a request comes from: the browser's session cookie names a player.

Every browser gets a guest player and a session on its first ``GET /api/me``
(routes/account.py); signing up turns that guest into an account. Other routes ask
:func:`current_player` (never creates one) or depend on :func:`player_required`.

The cookie ``usotsuki_session`` is ``HttpOnly`` (no script reads it), ``SameSite=Lax``
(other sites' requests carry it only on top-level navigations), ``Path=/`` and
``Secure`` when the request came over TLS (directly, or ``X-Forwarded-Proto: https`` from
a proxy uvicorn trusts: ``--forwarded-allow-ips``). State-changing requests that carry
it must also carry the session's CSRF token (:mod:`usotsuki.server.csrf`).
"""

from __future__ import annotations

import logging
from http.cookies import SimpleCookie
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.requests import HTTPConnection
from starlette.types import Scope

from usotsuki.server.auth import token_hash
from usotsuki.server.config import Clock, Refused, Settings
from usotsuki.server.player_store import (
    SESSION_SECONDS,
    Player,
    Session,
    find_session,
    purge_sessions,
)
from usotsuki.server.store import Store
from usotsuki.server.throttle import purge_failures

__all__ = ["COOKIE", "Player", "Session", "current_player", "player_required",
           "session_of", "set_session_cookie", "clear_session_cookie"]

COOKIE = "usotsuki_session"
SWEEP_SECONDS = 3600.0  # how often expired sessions and ended throttling windows go
log = logging.getLogger(__name__)
_CACHED = "usotsuki.session"  # the request's session, once looked up (scope["state"])


def cookie_token(scope: Scope) -> str | None:
    """The session cookie's value in the request's headers, if any."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed Cookie header names no session
                continue
            if COOKIE in jar and jar[COOKIE].value:
                return jar[COOKIE].value
    return None


async def lookup_session(scope: Scope, store: Store, now: float) -> Session | None:
    """The live session the request's cookie names (looked up once per request)."""
    state: dict[str, Any] = scope.setdefault("state", {})
    if _CACHED not in state:
        token = cookie_token(scope)
        state[_CACHED] = None if token is None else await store.call(
            find_session, store.engine, token_hash(token), now)
    session: Session | None = state[_CACHED]
    return session


def forget_session(request: HTTPConnection) -> None:
    """The request's session has ended or changed: look it up again if asked."""
    request.scope.setdefault("state", {}).pop(_CACHED, None)


async def session_of(request: HTTPConnection) -> Session | None:
    """The request's (or WebSocket's) live session, or None (no cookie, an unknown or
    expired one)."""
    return await lookup_session(request.scope, request.app.state.store,
                                request.app.state.lobby.clock.time())


async def current_player(request: HTTPConnection) -> Player | None:
    """The player of the request's (or WebSocket's) session, or None; never creates
    one."""
    session = await session_of(request)
    return None if session is None else session.player


async def player_required(request: HTTPConnection) -> Player:
    """FastAPI dependency: the request's player, or 401 ``no_player`` (the page makes
    one with ``GET /api/me`` first)."""
    player = await current_player(request)
    if player is None:
        raise Refused("no_player", "no player: GET /api/me first, then send its cookie", 401)
    return player


def _over_tls(request: Request) -> bool:
    # uvicorn sets the scheme from X-Forwarded-Proto only for the proxies it trusts
    return request.url.scheme in ("https", "wss")


def set_session_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=int(SESSION_SECONDS), path="/",
                        httponly=True, samesite="lax", secure=_over_tls(request))


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=_over_tls(request))


async def sweep_forever(store: Store, settings: Settings, clock: Clock) -> None:
    """Delete expired sessions and ended throttling counts every ``SWEEP_SECONDS`` (the
    server's task; every worker runs it: the deletes are idempotent and indexed)."""
    while True:
        await clock.sleep(SWEEP_SECONDS)
        now = clock.time()
        try:
            await store.call(purge_sessions, store.engine, now)
            await store.call(purge_failures, store.engine, settings.login_window, now)
        except Exception:  # the database away: the next sweep tries again
            log.exception("the sweep of expired sessions failed")
