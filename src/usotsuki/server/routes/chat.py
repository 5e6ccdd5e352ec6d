"""A table's options after its creation (the host's), chat reports and mutes.

Chat lines, reactions and mutes made at a table go over its WebSocket (PROTOCOL.md);
these routes are what a page does beside it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from usotsuki.server import chat_store, schemas
from usotsuki.server.identity import Player, player_required
from usotsuki.server.routes.app_state import store_of
from usotsuki.server.tables import Lobby, Refused

router = APIRouter(prefix="/api", responses={
    400: {"model": schemas.Problem}, 401: {"model": schemas.Problem},
    403: {"model": schemas.Problem}, 404: {"model": schemas.Problem},
    409: {"model": schemas.Problem}})


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby



@router.post("/tables/{table_id}/options", response_model=schemas.TableOptions)
async def set_options(table_id: str, body: schemas.OptionsChange,
                      request: Request) -> schemas.TableOptions:
    """The host changes the table's options: ``chat`` at any time, ``hints`` before the
    first game (never at a rated table). Everyone at the table is told (``options``)."""
    table = await _lobby(request).get(table_id)
    if not table.is_host(body.token):
        raise Refused("forbidden", "only the host token changes the table's options", 403)
    changes = body.model_dump(exclude={"token"}, exclude_none=True)
    if not changes:
        raise Refused("bad_options", "nothing to change: give chat or hints")
    await table.set_options(changes)
    return schemas.TableOptions(chat=table.chat_on, hints=table.hints_allowed)


@router.post("/tables/{table_id}/chat/{message_id}/report", status_code=201,
             response_model=schemas.Reported)
async def report(table_id: str, message_id: int, body: schemas.ChatReport, request: Request,
                 player: Annotated[Player, Depends(player_required)]) -> schemas.Reported:
    """Report a chat line of this table to the moderators (kept with the lines around
    it); reported again by the same player: the same report."""
    table = await _lobby(request).get(table_id)
    store = store_of(request)
    number = await store.call(chat_store.report, store.engine, table.row.pk, message_id,
                              player.id, body.reason, table.clock.time())
    return schemas.Reported(report=number)


@router.get("/mutes")
async def mutes(request: Request,
                player: Annotated[Player, Depends(player_required)]) -> list[dict[str, Any]]:
    """The players the session's player muted (their chat and reactions hidden from it
    at every table), latest first."""
    store = store_of(request)
    return await store.call(chat_store.muted_list, store.engine, player.id)
