"""The game server's FastAPI application (STYLE: adapters wired in ``create_app``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from usotsuki import __version__
from usotsuki.server import ws
from usotsuki.server.config import Clock, RealClock, Refused, Settings
from usotsuki.server.lobby import Lobby
from usotsuki.server.routes.tables import router as tables_router
from usotsuki.server.routes.ui import router as ui_router
from usotsuki.server.store import Store

STATIC = Path(__file__).parent / "static"


def default_db() -> Path:
    """``$XDG_DATA_HOME/usotsuki/server.sqlite3`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "usotsuki" / "server.sqlite3"


def create_app(store: Store | None = None, clock: Clock | None = None,
               bot_delay: float = 0.8, turn_seconds: float | None = None,
               deal_seed: int | None = None,
               rate_limit: tuple[float, float] = (20.0, 40.0),
               settings: Settings | None = None) -> FastAPI:
    """The app. ``store`` defaults to an in-memory SQLite database; ``bot_delay`` is the
    bots' humanlike pause (0 in tests); ``turn_seconds`` lets a bot play for a person
    who has not acted in time; ``deal_seed`` makes deals predictable (tests only);
    ``rate_limit`` is (messages per second, burst) per WebSocket; ``settings``, when
    given, replaces the first three (bot pool, quotas, expiry: see ``Settings``)."""
    the_store = store if store is not None else Store(":memory:")
    if settings is None:
        settings = Settings(bot_delay=bot_delay, turn_seconds=turn_seconds,
                            deal_seed=deal_seed)
    lobby = Lobby(the_store, settings, clock or RealClock())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await lobby.start()  # loads no table: each is loaded (and carries on) on first use
        yield
        lobby.stop()

    app = FastAPI(title="usotsuki game server", version=__version__, lifespan=lifespan,
                  description="Bluff and the Liar Game online. HTTP for tables, a "
                  "WebSocket per seat for play: see PROTOCOL.md.")
    app.state.lobby = lobby
    app.state.store = the_store
    app.state.rate_limit = rate_limit

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"error": exc.code, "message": exc.message},
                            status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)},
                            status_code=422)

    app.include_router(tables_router)
    app.include_router(ui_router)
    app.include_router(ws.router)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
