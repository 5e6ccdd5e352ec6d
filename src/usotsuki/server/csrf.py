"""CSRF protection: a state-changing request (POST, PUT, PATCH, DELETE) that carries the
session cookie is refused (403 ``csrf``) unless its ``X-CSRF-Token`` header equals the
session's token (``GET /api/me`` gives it to the page). A cookie that names no live
session is refused the same way: the page asks ``GET /api/me`` again. Requests without
the cookie are anonymous: whatever they change, a token in their body authorises.

Another site's page cannot read the token (the API answers no cross-origin reads), so
it cannot send it; ``SameSite=Lax`` is a second wall, not the only one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from usotsuki.server.config import Refused
from usotsuki.server.health import unavailable, unreachable
from usotsuki.server.identity import cookie_token, lookup_session
from usotsuki.server.problems import refused_response
from usotsuki.server.store import Store

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HEADER = "x-csrf-token"


class CsrfCheck:
    """ASGI middleware refusing cross-site state changes made with the session cookie."""

    def __init__(self, app: ASGIApp, store: Store, now: Callable[[], float]) -> None:
        self.app = app
        self.store = store
        self.now = now

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in STATE_CHANGING
                or cookie_token(scope) is None):
            await self.app(scope, receive, send)
            return
        try:
            session = await lookup_session(scope, self.store, self.now())
        except Exception as exc:
            if not unreachable(exc):
                raise
            self.store.health.failed(exc)
            await refused_response(unavailable())(scope, receive, send)
            return
        sent = Headers(scope=scope).get(HEADER, "")
        if session is None or not secrets.compare_digest(sent.encode(),
                                                         session.csrf.encode()):
            await refused_response(Refused("csrf", (
                "this request carries the session cookie but not its X-CSRF-Token "
                "(GET /api/me gives it)"), 403))(scope, receive, send)
            return
        await self.app(scope, receive, send)
