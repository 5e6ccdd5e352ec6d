"""The game server's FastAPI application (STYLE: adapters wired in ``create_app``)."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import psycopg
import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect

from usotsuki import __version__
from usotsuki.server import ws
from usotsuki.server.arena import Arena
from usotsuki.server.bot_inbox import BotInbox
from usotsuki.server.bot_rate import TokenRates
from usotsuki.server.challenges import Challenges
from usotsuki.server.cluster import ClusterConfig, Coordinator
from usotsuki.server.config import Clock, RealClock, Refused, Settings
from usotsuki.server.csrf import CsrfCheck
from usotsuki.server.guard import (
    BodyLimit,
    ConnectionCap,
    Networks,
    OriginCheck,
    PathCheck,
    SecurityHeaders,
)
from usotsuki.server.health import ping, unavailable, unreachable
from usotsuki.server.identity import sweep_forever
from usotsuki.server.lobby import Lobby
from usotsuki.server.matchmaking import Matchmaker
from usotsuki.server.metrics import Metrics, SocketGauge, probe_loop
from usotsuki.server.problems import refused_response
from usotsuki.server.replay_service import ReplayLimits, ReplayService
from usotsuki.server.retention import Records, compact_forever
from usotsuki.server.review_service import ReviewLimits, ReviewService
from usotsuki.server.routes import docs as api_docs
from usotsuki.server.routes.account import router as account_router
from usotsuki.server.routes.arena import pages as arena_page
from usotsuki.server.routes.arena import router as arena_router
from usotsuki.server.routes.bot_account import router as bot_account_router
from usotsuki.server.routes.bots import router as bots_router
from usotsuki.server.routes.challenges import router as challenges_router
from usotsuki.server.routes.chat import router as chat_router
from usotsuki.server.routes.lessons import router as lessons_router
from usotsuki.server.routes.lobby import pages as lobby_page
from usotsuki.server.routes.lobby import router as lobby_router
from usotsuki.server.routes.match import router as match_router
from usotsuki.server.routes.ops import router as ops_router
from usotsuki.server.routes.pages import router as pages_router
from usotsuki.server.routes.players import router as players_router
from usotsuki.server.routes.puzzles import router as puzzles_router
from usotsuki.server.routes.ratings import router as ratings_router
from usotsuki.server.routes.review import router as review_router
from usotsuki.server.routes.rules import router as rules_router
from usotsuki.server.routes.tables import router as tables_router
from usotsuki.server.routes.ui import router as ui_router
from usotsuki.server.store import Store

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1024 * 1024  # bytes of a request body (the largest are posted records)
RECORD_ROUTES = ("/api/replay", "/api/review")  # the only bodies over guard.JSON_BODY
WS_PER_ADDRESS = 32  # WebSockets open at once from one client address
log = logging.getLogger(__name__)


def default_db() -> Path:
    """``$XDG_DATA_HOME/usotsuki/server.sqlite3`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "usotsuki" / "server.sqlite3"


def create_app(store: Store | None = None, clock: Clock | None = None,
               bot_delay: float = 0.8, turn_seconds: float | None = None,
               deal_seed: int | None = None,
               rate_limit: tuple[float, float] = (20.0, 40.0),
               sync_limit: tuple[float, float] = (200.0, 1000.0),
               monotonic: Callable[[], float] = time.monotonic,
               allowed_hosts: Sequence[str] | None = None,
               max_body: int = MAX_BODY, ws_per_address: int = WS_PER_ADDRESS,
               ws_per_network: int | None = None, networks: Networks | None = None,
               replay_limits: ReplayLimits | None = None,
               script_sources: Sequence[str] = (),
               settings: Settings | None = None,
               reviews: ReviewService | None = None,
               cluster: ClusterConfig | None = None) -> FastAPI:
    """The app. ``store`` defaults to an in-memory SQLite database; ``bot_delay`` is the
    bots' humanlike pause (0 in tests); ``turn_seconds`` lets a bot play for a person
    who has not acted in time; ``deal_seed`` makes deals predictable (tests only);
    ``settings``, when given, replaces those three (bot pool, quotas, expiry: see
    ``Settings``); ``rate_limit`` is (messages per second, burst) per WebSocket,
    ``sync_limit`` (events resent per second, burst) for ``sync``, both timed by
    ``monotonic``. ``allowed_hosts``: the Host names served and WebSocket origins
    accepted (None: any, for in-process use; ``usotsuki serve`` always gives them);
    ``max_body`` bounds a request body (a posted record's; other JSON bodies are held
    to ``guard.JSON_BODY``); ``ws_per_address`` and ``ws_per_network`` (4 addresses'
    worth by default) the WebSockets open at once from one address and one network
    (``networks``: IPv4 /24, IPv6 /64 by default); ``replay_limits`` the replay
    workers (see ``replay_service``);
    ``script_sources`` widen the pages' Content Security Policy (the browser tests'
    harness evaluates strings: ``'unsafe-eval'``; never in production); ``reviews`` the
    game reviews' service (``review_service``; default limits when None);
    ``cluster``: one worker of several sharing a PostgreSQL store and Redis (see
    ``cluster``)."""
    the_store = store if store is not None else Store(":memory:")
    if settings is None:
        settings = Settings(bot_delay=bot_delay, turn_seconds=turn_seconds,
                            deal_seed=deal_seed)
    metrics = Metrics()
    the_store.observer = metrics.observe_commit
    the_store.failed = metrics.commit_failed
    health = the_store.health
    metrics.database_reachable.set_function(lambda: float(health.reachable))
    health.probes.append(lambda: the_store.call(ping, the_store.engine))
    coordinator = None if cluster is None else Coordinator(cluster, the_store, metrics)
    lobby: Lobby
    if coordinator is None:
        lobby = Lobby(the_store, settings, clock or RealClock())
        metrics.count_tables("loaded", lambda: len(lobby.by_id))
        metrics.count_tables("in_play", lobby.in_play)
    else:
        lobby = coordinator.lobby_for(the_store, settings, clock or RealClock())

    lobby.timing = metrics.observe_phase
    matchmaker = Matchmaker(lobby, the_store, lobby.clock)
    bot_inbox = BotInbox(the_store, lobby.clock)
    challenges = Challenges(lobby, the_store, lobby.clock, bot_inbox)
    arena = Arena(lobby, the_store, lobby.clock, settings, bot_inbox.notify)
    replays = ReplayService(replay_limits)
    the_reviews = reviews if reviews is not None else ReviewService(ReviewLimits())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await lobby.start()  # loads no table: each is loaded (and carries on) on first use
        if coordinator is not None:
            await coordinator.start()
        loop = asyncio.get_running_loop()
        lag = loop.create_task(probe_loop(metrics))
        compactor = None if settings.retention_seconds is None else loop.create_task(
            compact_forever(the_store, settings, lobby.clock))
        probe = loop.create_task(health.watch())
        sweep = loop.create_task(sweep_forever(the_store, settings, lobby.clock))
        matchmaker.start()
        bot_inbox.start()
        challenges.start()
        arena.start()
        yield
        arena.stop()
        challenges.stop()
        bot_inbox.stop()
        matchmaker.stop()
        lag.cancel()
        probe.cancel()
        sweep.cancel()
        if compactor is not None:
            compactor.cancel()
        if coordinator is not None:
            await coordinator.close()  # leases released: others take the tables at once
        lobby.stop()
        replays.close()
        the_reviews.close()

    app = FastAPI(title="usotsuki game server", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # routes/docs.py serves /docs
                  description="Bluff and the Liar Game online. HTTP for tables, a "
                  "WebSocket per seat for play: see PROTOCOL.md.")
    app.state.lobby = lobby
    app.state.matchmaker = matchmaker
    app.state.arena = arena
    app.state.bot_inbox = bot_inbox
    app.state.challenges = challenges
    app.state.token_rates = TokenRates(lobby.clock.time, coordinator)
    app.state.records = Records(lobby)
    app.state.store = the_store
    app.state.rate_limit = rate_limit
    app.state.sync_limit = sync_limit
    app.state.monotonic = monotonic
    app.state.replays = replays
    app.state.reviews = the_reviews
    app.state.metrics = metrics
    app.state.cluster = coordinator

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        return refused_response(exc)

    async def database_away(_request: Request, exc: Exception) -> JSONResponse:
        # A request that needed the database while it was away: retryable, not a 500.
        if not unreachable(exc):
            raise exc
        health.failed(exc)
        return refused_response(unavailable())

    for away in (sqlalchemy.exc.DBAPIError, sqlalchemy.exc.TimeoutError,
                 psycopg.OperationalError):
        app.add_exception_handler(away, database_away)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)},
                            status_code=422)

    @app.exception_handler(ClientDisconnect)
    async def disconnected(request: Request, _exc: ClientDisconnect) -> Response:
        # A client gone before its body arrived (or cut off by a limit): one line, as
        # a traceback for each would flood the log.
        address = request.client.host if request.client is not None else "?"
        log.info("client %s left during %s %s", address, request.method, request.url.path)
        return Response(status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_problem(request: Request, exc: StarletteHTTPException) -> Response:
        # FastAPI's refusal of a body it cannot parse (too deep ...) in the Problem shape.
        if exc.status_code == 400:
            return JSONResponse({"error": "bad_json", "message": str(exc.detail)},
                                status_code=400, headers=exc.headers)
        return await http_exception_handler(request, exc)

    # Outermost last: every answer gets the security headers, hosts are checked first.
    app.add_middleware(CsrfCheck, store=the_store, now=lobby.clock.time)
    app.add_middleware(BodyLimit, max_body=max_body, large_paths=RECORD_ROUTES)
    app.add_middleware(ConnectionCap, cap=ws_per_address, shared=coordinator,
                       network_cap=ws_per_network, networks=networks)
    app.add_middleware(SocketGauge, metrics=metrics)
    if allowed_hosts is not None:
        app.add_middleware(OriginCheck, hosts=allowed_hosts)
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    app.add_middleware(PathCheck)
    app.add_middleware(SecurityHeaders, static=STATIC, script_sources=script_sources)

    app.include_router(api_docs.router)
    app.mount(api_docs.ASSETS, api_docs.assets(), name="docs-assets")
    app.include_router(ops_router)
    app.include_router(account_router)
    app.include_router(bot_account_router)
    app.include_router(bots_router)
    app.include_router(challenges_router)
    app.include_router(players_router)
    app.include_router(tables_router)
    app.include_router(chat_router)
    app.include_router(match_router)
    app.include_router(arena_router)
    app.include_router(arena_page)
    app.include_router(lobby_router)
    app.include_router(lobby_page)
    app.include_router(ratings_router)
    app.include_router(ui_router)
    app.include_router(pages_router)
    app.include_router(review_router)
    app.include_router(rules_router)
    app.include_router(lessons_router)
    app.include_router(puzzles_router)
    app.include_router(ws.router)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
