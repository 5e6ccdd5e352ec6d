"""Routes for the browser UI: rule options, replay frames, Bluff evidence at a reveal."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from usotsuki.core.errors import UsotsukiError
from usotsuki.server import schemas
from usotsuki.server.replay import NotReplayable, evidence, frames
from usotsuki.server.tables import Lobby, Refused

router = APIRouter(prefix="/api", responses={
    400: {"model": schemas.Problem}, 404: {"model": schemas.Problem},
    409: {"model": schemas.Problem}})

MAX_RECORD_HANDS = 8


@router.get("/tables/{table_id}/games/{number}/replay")
async def table_replay(table_id: str, number: int, request: Request) -> dict[str, Any]:
    """A finished game of this table as frames with every card face up."""
    lobby: Lobby = request.app.state.lobby
    record = (await lobby.get(table_id)).record(number)  # refuses a game being played
    return _frames(record)


@router.post("/replay")
def record_replay(record: Annotated[Any, Body(description="A finished Part 4 record.")]
                  ) -> dict[str, Any]:
    """Any finished record (e.g. a downloaded one) as frames with every card face up."""
    return _frames(record)


def _frames(record: Any) -> dict[str, Any]:
    try:
        return frames(record)
    except NotReplayable as exc:
        raise Refused("bad_record", str(exc)) from None


@router.post("/bluff/evidence", response_model=list[str])
def bluff_evidence(call: Annotated[str, Body(max_length=64)],
                   hands: Annotated[list[list[str]], Body(max_length=MAX_RECORD_HANDS)]
                   ) -> list[str]:
    """The revealed cards that make or break a Bluff call (B8), to highlight them."""
    if sum(len(h) for h in hands) > 52:
        raise Refused("bad_request", "more than 52 cards")
    try:
        return evidence(call, hands)
    except UsotsukiError as exc:
        raise Refused("bad_request", str(exc)) from None
