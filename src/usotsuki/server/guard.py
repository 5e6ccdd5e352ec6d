"""ASGI middleware that bounds what one anonymous client can make the server do.

- ``BodyLimit``: a request body over the limit gets 413 before it is parsed, whether it
  announces its length or streams it in chunks.
- ``SecurityHeaders``: nosniff, a Content Security Policy the pages satisfy (their
  inline scripts allowed by hash), no framing, no referrer (URLs hold invite codes).
- ``OriginCheck``: a WebSocket opened by a page of another site is refused (with the
  host check of Starlette's ``TrustedHostMiddleware``, DNS rebinding cannot reach a
  server on localhost either).
- ``ConnectionCap``: at most so many WebSockets open at once per client address.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def allowed_hosts(host: str, extra: Iterable[str] = ()) -> list[str]:
    """The Host names a server bound to ``host`` answers: that address, localhost's
    forms and ``extra``; any name when it listens on every interface and no ``extra``
    is given (its LAN names cannot be known in advance)."""
    extra = [h.lower() for h in extra]
    if host in ("0.0.0.0", "::", "") and not extra:
        return ["*"]
    bare = host.lower()
    bracketed = f"[{bare}]" if ":" in bare and not bare.startswith("[") else bare
    return list(dict.fromkeys([bracketed, *LOCAL_HOSTS, *extra]))


async def _refuse(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = f"the request body is limited to {self.max_body} bytes"
        length = Headers(scope=scope).get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
            await _refuse(send, 413, "too_large", message)
            return
        seen = 0
        started = refused = False

        async def limited_receive() -> Message:
            nonlocal seen, refused
            received = await receive()
            if received["type"] == "http.request" and not refused:
                seen += len(received.get("body", b""))
                if seen > self.max_body:
                    # Answer now, and tell the app the client left: it stops reading
                    # and whatever it answers is dropped.
                    refused = True
                    if not started:
                        await _refuse(send, 413, "too_large", message)
                    return {"type": "http.disconnect"}
            return received

        async def watched_send(sent: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or sent["type"] == "http.response.start"
            await send(sent)

        await self.app(scope, limited_receive, watched_send)


def _inline_script_hashes(static: Path) -> list[str]:
    """CSP sources for the pages' inline scripts (so no page needs 'unsafe-inline')."""
    found = []
    for page in sorted(static.glob("*.html")):
        for body in re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page.read_text(),
                               re.S):
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            found.append(f"'sha256-{digest}'")
    return found


def page_policy(static: Path, script_sources: Sequence[str] = ()) -> str:
    scripts = " ".join(["'self'", *_inline_script_hashes(static), *script_sources])
    return ("default-src 'self'; script-src " + scripts + "; style-src 'self'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


# FastAPI's /docs and /redoc load their scripts from a CDN and start them inline.
DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
               "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
               "https://fonts.googleapis.com; font-src https://fonts.gstatic.com; "
               "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
               "worker-src blob:; connect-src 'self'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")


class SecurityHeaders:
    def __init__(self, app: ASGIApp, static: Path, script_sources: Sequence[str] = ()) -> None:
        self.app = app
        common = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                  (b"referrer-policy", b"no-referrer"),
                  (b"cross-origin-opener-policy", b"same-origin")]
        self.page = [*common, (b"content-security-policy",
                                     page_policy(static, script_sources).encode())]
        self.docs = [*common, (b"content-security-policy", DOCS_POLICY.encode())]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.docs if scope["path"].startswith(DOCS_PATHS) else self.page

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k, v) for k, v in extra if k not in present)]
            await send(message)

        await self.app(scope, receive, with_headers)


def _origin_host(origin: str) -> str | None:
    try:
        parts = urlsplit(origin)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower()
    return f"[{host}]" if ":" in host else host


class OriginCheck:
    """A WebSocket whose ``Origin`` (set by browsers, absent from other clients) names a
    host outside ``hosts`` is refused before it is accepted (HTTP 403)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = app
        self.hosts = [h.lower() for h in hosts]

    def allowed(self, origin: str | None) -> bool:
        if origin is None or "*" in self.hosts:
            return True
        host = _origin_host(origin)
        return host is not None and any(
            host == h or (h.startswith("*.") and host.endswith(h[1:])) for h in self.hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not self.allowed(Headers(scope=scope).get("origin")):
            await send({"type": "websocket.close", "code": 1008,
                        "reason": "cross-site WebSocket refused"})
            return
        await self.app(scope, receive, send)


class SharedCount(Protocol):
    """WebSockets per address counted across several workers (the cluster's Redis)."""

    async def open_socket(self, address: str, cap: int) -> bool | None:
        """Count one more from ``address`` if under ``cap`` everywhere: True; False when
        the cap is reached; None when the shared count cannot be reached now."""
        ...

    async def close_socket(self, address: str) -> None: ...


class ConnectionCap:
    """At most ``cap`` WebSockets open at once from one client address: in this process,
    and with ``shared`` in every worker of a cluster (this process's count decides
    alone while the shared one cannot be reached)."""

    def __init__(self, app: ASGIApp, cap: int, shared: SharedCount | None = None) -> None:
        self.app = app
        self.cap = cap
        self.shared = shared
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("?",))[0]
        counted = False
        if self.open[address] < self.cap and self.shared is not None:
            allowed = await self.shared.open_socket(address, self.cap)
            counted = bool(allowed)
            if allowed is False:
                await _too_many(send)
                return
        if self.open[address] >= self.cap:
            await _too_many(send)
            return
        self.open[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]
            if counted and self.shared is not None:
                await self.shared.close_socket(address)


async def _too_many(send: Send) -> None:
    await send({"type": "websocket.close", "code": 1013,
                "reason": "too many connections from this address"})
