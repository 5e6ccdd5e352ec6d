"""Routes of the game review: a table's finished game, or any finished record posted.

A review takes seconds: the first request starts it and is answered 202 with its
progress (``{"status": "running", "done", "total"}``); the client asks again until the
answer is 200 ``{"status": "done", "analysis": ...}`` (``docs/analysis.md``). A game
still being played is refused (409 ``not_finished``): a review shows every hand.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from usotsuki.core.record import MAX_RECORD_BYTES
from usotsuki.server import schemas
from usotsuki.server.config import Refused
from usotsuki.server.retention import Records
from usotsuki.server.review_service import ReviewService
from usotsuki.server.routes.ui import read_record_body

router = APIRouter(prefix="/api", responses={
    400: {"model": schemas.Problem}, 404: {"model": schemas.Problem},
    409: {"model": schemas.Problem}, 413: {"model": schemas.Problem},
    503: {"model": schemas.Problem}})

REVIEW_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"description": '`{"status": "done", "analysis": {...}}` (docs/analysis.md).'},
    202: {"description": '`{"status": "running", "done": n, "total": m}`, or '
               '`{"status": "queued", "position": p, ...}` while it waits: ask again '
               '(a review nobody asks about for 10 s ends).'},
    429: {"model": schemas.Problem}}


def _service(request: Request) -> ReviewService:
    service: ReviewService = request.app.state.reviews
    return service


@router.get("/tables/{table_id}/games/{number}/review", responses=REVIEW_ANSWER)
async def table_review(table_id: str, number: int, request: Request) -> Response:
    """The review of a finished game of this table: started by the first request."""
    records: Records = request.app.state.records
    record = await records.record(table_id, number)  # refuses (409) a game being played
    return _answer(_service(request).poll(("table", table_id, number),
                                          lambda: json.dumps(record).encode(),
                                          _requester(request)))


@router.post("/review", responses=REVIEW_ANSWER, openapi_extra={"requestBody": {
    "required": True, "description": "A finished Part 4 record (at most "
    f"{MAX_RECORD_BYTES} bytes).", "content": {"application/json": {"schema": {}}}}})
async def record_review(request: Request) -> Response:
    """The review of any finished record (e.g. a downloaded one): post it again to follow
    its progress (the same record is the same review)."""
    raw = await read_record_body(request)
    service = _service(request)
    return _answer(service.poll(service.key_of(raw), lambda: raw, _requester(request)))


def _requester(request: Request) -> str | None:
    """Who asks: the client's address (behind a trusted proxy, the one it forwards)."""
    return request.client.host if request.client is not None else None


def _answer(answer: tuple[int, str, bytes]) -> Response:
    status, code, body = answer
    if status in (200, 202):
        return Response(body, status_code=status, media_type="application/json")
    if status == 409:
        raise Refused(code, body.decode(), 409)
    headers = {"Retry-After": "2"} if status in (429, 503) else None
    return JSONResponse({"error": code, "message": body.decode()}, status_code=status,
                        headers=headers)
