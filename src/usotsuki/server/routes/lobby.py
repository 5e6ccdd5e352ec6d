"""The lobby: open public tables to join, live public games to watch, and a live feed of
both (server-sent events)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, StreamingResponse

from usotsuki.server import schemas
from usotsuki.server.listings import Listings, live_games, open_tables

router = APIRouter(prefix="/api")
pages = APIRouter(include_in_schema=False)

STATIC = Path(__file__).resolve().parents[1] / "static"
KEEPALIVE_SECONDS = 15.0  # a comment line this often keeps proxies from closing the stream
STREAM_SECONDS = 300.0  # a stream ends after this long (the browser reconnects at once):
# no stream outlives a worker's drain by more than that
RECONNECT_MS = 1000  # the browser's EventSource reconnects after this long


def _listings(request: Request) -> Listings:
    listings: Listings = request.app.state.lobby.listings
    return listings


@router.get("/lobby", response_model=schemas.OpenTables)
async def lobby(request: Request) -> dict[str, Any]:
    """Public tables waiting for players, with a free seat and a person present lately:
    join one with ``POST /api/tables/{id}/join``."""
    listings = _listings(request)
    return {"tables": await listings.store.call(open_tables, listings.store.engine,
                                                listings.clock.time())}


@router.get("/live", response_model=schemas.LiveGames)
async def live(request: Request) -> dict[str, Any]:
    """Public games being played, with their spectators: watch one at
    ``/table.html?t={id}`` (spectators see no hidden card)."""
    listings = _listings(request)
    return {"games": await listings.store.call(live_games, listings.store.engine,
                                               listings.clock.time())}


@router.get("/lobby/events", response_class=StreamingResponse, responses={200: {
    "content": {"text/event-stream": {}},
    "description": "Server-sent events: `lobby` events whose data is "
    "`{open: [Listing], live: [Listing]}`, the whole lists, sent when they change, "
    "one a second at most."}})
async def lobby_events(request: Request) -> StreamingResponse:
    """The lobby's lists as they change (at most one frame a second)."""
    feed = _listings(request).feed
    return StreamingResponse(_stream(feed.listen(), feed.leave), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _stream(queue: asyncio.Queue[str | None],
                  leave: Any) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    ends = loop.time() + STREAM_SECONDS
    try:
        yield f"retry: {RECONNECT_MS}\n\n"
        while (left := ends - loop.time()) > 0:
            try:
                frame = await asyncio.wait_for(queue.get(), min(KEEPALIVE_SECONDS, left))
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if frame is None:  # the server is stopping
                return
            yield f"event: lobby\ndata: {frame}\n\n"
    finally:
        leave(queue)


@pages.get("/lobby")
async def lobby_page() -> FileResponse:
    """Open public tables to join, live games to watch."""
    return FileResponse(STATIC / "lobby.html")
