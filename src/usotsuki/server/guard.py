"""ASGI middleware that bounds what one anonymous client can make the server do.

- ``BodyLimit``: a request body over the limit gets 413 before it is parsed, whether it
  announces its length or streams it in chunks: a small limit for JSON bodies (parsed
  on the event loop), the large one only for the routes that hand a record to a worker.
- ``PathCheck``: a path with a ``.`` or ``..`` segment (``%2f`` decodes to ``/``) is
  refused, so no page is served under another route's policy.
- ``SecurityHeaders``: nosniff, a Content Security Policy the pages satisfy (their
  inline scripts allowed by hash), no framing, no referrer (URLs hold invite codes).
- ``OriginCheck``: a WebSocket opened by a page of another site is refused (with the
  host check of Starlette's ``TrustedHostMiddleware``, DNS rebinding cannot reach a
  server on localhost either).
- ``ConnectionCap``: at most so many WebSockets open at once per client address and
  per network (``Networks``: an IPv4 /24, an IPv6 /64).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Networks:
    """The network a client address is counted in: its IPv4 /24 or IPv6 /64 by default
    (one host or household commonly holds a whole /64, a provider hands out addresses
    of a /24): many addresses of one network are one client to the caps. An address
    that is not an IP (a test client's name) is its own network."""

    ipv4_prefix: int = 24
    ipv6_prefix: int = 64

    def problem(self) -> str | None:
        if not (8 <= self.ipv4_prefix <= 32 and 16 <= self.ipv6_prefix <= 128):
            return "--ipv4-prefix must be 8 to 32 and --ipv6-prefix 16 to 128"
        return None

    def of(self, address: str) -> str:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return address
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        bits = self.ipv4_prefix if ip.version == 4 else self.ipv6_prefix
        return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


JSON_BODY = 16 * 1024
"""Bytes of a JSON body parsed on the event loop (a table's creation is under 1 KB)."""


class BodyLimit:
    """``max_body`` for the ``large_paths`` (read raw and parsed in a worker process),
    ``small_body`` for every other route."""

    def __init__(self, app: ASGIApp, max_body: int, small_body: int = JSON_BODY,
                 large_paths: Sequence[str] = ()) -> None:
        self.app = app
        self.max_body = max_body
        self.small_body = min(small_body, max_body)
        self.large_paths = frozenset(large_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_body if scope["path"] in self.large_paths else self.small_body
        await self._limited(limit, scope, receive, send)

    async def _limited(self, limit: int, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"the request body is limited to {limit} bytes"
        length = Headers(scope=scope).get("content-length", "")
        if length.isdigit() and int(length) > limit:
            await _refuse(send, 413, "too_large", message)
            return
        seen = 0
        started = refused = False

        async def limited_receive() -> Message:
            nonlocal seen, refused
            received = await receive()
            if received["type"] == "http.request" and not refused:
                seen += len(received.get("body", b""))
                if seen > limit:
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


class PathCheck:
    """404 for a path with an empty, ``.`` or ``..`` segment, or a backslash or NUL:
    uvicorn decodes ``%2f`` to ``/``, and static files resolve ``..``, so a path
    could name one route and serve another's file (``/docs%2f..%2ftable.html``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not clean_path(scope["path"]):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": "bad path"})
            else:
                await _refuse(send, 404, "not_found", "no such path")
            return
        await self.app(scope, receive, send)


def clean_path(path: str) -> bool:
    if "\\" in path or "\0" in path or not path.startswith("/"):
        return False
    segments = path.split("/")[1:]
    # One empty segment is allowed last ("/", "/docs/"), none before it.
    return not any(s in (".", "..") for s in segments) and "" not in segments[:-1]


class SecurityHeaders:
    def __init__(self, app: ASGIApp, static: Path, script_sources: Sequence[str] = ()) -> None:
        self.app = app
        common = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                  (b"referrer-policy", b"no-referrer"),
                  (b"cross-origin-opener-policy", b"same-origin")]
        # One policy for every answer, /docs included (routes/docs.py).
        self.headers = [*common, (b"content-security-policy",
                                  page_policy(static, script_sources).encode())]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.headers

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
    """At most ``cap`` WebSockets open at once from one client address and
    ``network_cap`` from one network (``networks``): in this process, and with
    ``shared`` in every worker of a cluster (this process's count decides alone while
    the shared one cannot be reached)."""

    def __init__(self, app: ASGIApp, cap: int, shared: SharedCount | None = None,
                 network_cap: int | None = None, networks: Networks | None = None) -> None:
        self.app = app
        self.cap = cap
        self.network_cap = network_cap if network_cap is not None else 4 * cap
        self.networks = networks or Networks()
        self.shared = shared
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("?",))[0]
        # The network's key cannot be an address: an IP network has a "/".
        keys = [(address, self.cap), (self.networks.of(address), self.network_cap)]
        if keys[1][0] == address:
            keys.pop()
        counted: list[str] = []
        try:
            for key, cap in keys:
                if not await self._count(key, cap, counted):
                    await send({"type": "websocket.close", "code": 1013, "reason":
                                "too many connections from this "
                                + ("address" if key == address else "network")})
                    return
            await self.app(scope, receive, send)
        finally:
            await self._release(keys, counted)

    async def _count(self, key: str, cap: int, counted: list[str]) -> bool:
        if self.open[key] >= cap:
            return False
        shared = None
        if self.shared is not None:
            shared = await self.shared.open_socket(key, cap)
            if shared is False:
                return False
        self.open[key] += 1
        counted.append("shared" if shared else "local")
        return True

    async def _release(self, keys: list[tuple[str, int]], counted: list[str]) -> None:
        for (key, _), how in zip(keys, counted, strict=False):
            self.open[key] -= 1
            if not self.open[key]:
                del self.open[key]
            if how == "shared" and self.shared is not None:
                await self.shared.close_socket(key)
