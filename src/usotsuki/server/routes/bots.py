"""The Bot API's own calls: who the token's bot is, and its events (a long poll).

Seeking arena games and challenges have their own routes (arena.py, challenges.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from usotsuki.server import schemas
from usotsuki.server.bot_auth import BotCaller, bot_required
from usotsuki.server.bot_inbox import BotInbox, mark_seek_seen
from usotsuki.server.store import Store

router = APIRouter(prefix="/api/bot", tags=["bots"], responses={
    401: {"model": schemas.Problem}, 403: {"model": schemas.Problem},
    429: {"model": schemas.Problem}})

MAX_WAIT = 30.0  # seconds an events request may wait (proxies' read timeouts are longer)


@router.get("/me", response_model=schemas.BotMe)
async def me(bot: Annotated[BotCaller, Depends(bot_required(None))]) -> schemas.BotMe:
    """The token's bot and the token's scopes."""
    return schemas.BotMe(id=bot.player.id, name=bot.player.name,
                         scopes=sorted(bot.scopes))  # type: ignore[arg-type]


@router.get("/events", response_model=schemas.BotEvents)
async def events(request: Request, bot: Annotated[BotCaller, Depends(bot_required("play"))],
                 after: Annotated[int, Query(ge=0, description="The last event number seen "
                                             "(0: every event kept).")] = 0,
                 wait: Annotated[float, Query(ge=0.0, le=MAX_WAIT, description="Seconds to "
                                              "wait for an event when there is none.")
                                 ] = 0.0) -> schemas.BotEvents:
    """The bot's events after ``after``, at once or (with ``wait``) once one comes.
    Polling keeps the bot's arena seek alive."""
    store: Store = request.app.state.store
    inbox: BotInbox = request.app.state.bot_inbox
    clock = request.app.state.lobby.clock
    await store.call(mark_seek_seen, store.engine, bot.player.id, clock.time())
    found = await inbox.wait(bot.player.id, after, wait)
    if wait > 0:  # a long wait: the seek was seen until its end
        await store.call(mark_seek_seen, store.engine, bot.player.id, clock.time())
    return schemas.BotEvents(events=found, next=found[-1]["n"] if found else after)
