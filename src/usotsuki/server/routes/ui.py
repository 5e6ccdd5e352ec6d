"""Routes for the browser UI: rule options, replay frames, Bluff evidence at a reveal."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse, Response

from usotsuki.core.errors import UsotsukiError
from usotsuki.core.record import MAX_RECORD_BYTES, RecordTooLarge, check_record_size
from usotsuki.frames import evidence
from usotsuki.server import schemas
from usotsuki.server.config import Refused
from usotsuki.server.replay_service import ReplayService
from usotsuki.server.retention import Records

router = APIRouter(prefix="/api", responses={
    400: {"model": schemas.Problem}, 404: {"model": schemas.Problem},
    409: {"model": schemas.Problem}})

MAX_RECORD_HANDS = 8


REPLAY_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"description": "The replay: `{game, players, names, rules, frames}` "
          "(PROTOCOL.md, Replay frames)."},
    413: {"model": schemas.Problem, "description": "`too_large` (over the size or step "
          "limit, refused before any work) or `too_costly` (stopped at its deadline or "
          "memory bound)."},
    503: {"model": schemas.Problem, "description": "`busy`: too many replays at once."}}


@router.get("/tables/{table_id}/games/{number}/replay", responses=REPLAY_ANSWER)
async def table_replay(table_id: str, number: int, request: Request) -> Response:
    """A finished game of this table as frames with every card face up."""
    records: Records = request.app.state.records
    record = await records.record(table_id, number)  # refuses a game still being played
    service: ReplayService = request.app.state.replays
    # A finished game never changes: its frames are cached by table and number.
    return _answer(await service.answer(("table", table_id, number),
                                        lambda: json.dumps(record).encode()))


@router.post("/replay", responses=REPLAY_ANSWER, openapi_extra={"requestBody": {
    "required": True, "description": "A finished Part 4 record (at most "
    f"{MAX_RECORD_BYTES} bytes).", "content": {"application/json": {"schema": {}}}}})
async def record_replay(request: Request) -> Response:
    """Any finished record (e.g. a downloaded one) as frames with every card face up."""
    raw = await read_record_body(request)
    service: ReplayService = request.app.state.replays
    return _answer(await service.answer(service.key_of(raw), lambda: raw))


async def read_record_body(request: Request) -> bytes:
    """The body, refused with 413 as soon as it is longer than a record may be
    (``core.record``): it is parsed in a worker, never here."""
    size = request.headers.get("content-length", "")
    try:
        if size.isdigit():
            check_record_size(int(size))
    except RecordTooLarge as exc:
        raise Refused("too_large", exc.fault.message, 413) from None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_RECORD_BYTES:
            raise Refused("too_large", f"the record has more than {MAX_RECORD_BYTES} bytes; "
                          f"at most {MAX_RECORD_BYTES} are read", 413)
    return bytes(body)


def _answer(answer: tuple[int, str, bytes]) -> Response:
    status, code, body = answer
    if status == 200:
        return Response(body, media_type="application/json")
    headers = {"Retry-After": "2"} if status == 503 else None
    return JSONResponse({"error": code, "message": body.decode()}, status_code=status,
                        headers=headers)


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
