"""Operations: liveness (``/healthz``), readiness (``/readyz``), Prometheus ``/metrics``."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from usotsuki.server.config import Refused
from usotsuki.server.health import ping
from usotsuki.server.store import Store

router = APIRouter(include_in_schema=False)

CHECK_SECONDS = 2.0  # a statement slower than this (a database cut off) is not ready


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process answers (its event loop turns)."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready for traffic (200) while a statement runs on the database: on the store's
    pool and, in a cluster, on the pool of the tables' writes. Redis away is reported
    as "degraded" and is still ready: the worker's own tables go on (relayed commands
    and the followers' copies wait for it), and a Redis blip must not make every
    worker unready at once."""
    store: Store = request.app.state.store
    cluster = request.app.state.cluster
    checks: dict[str, bool] = {}
    try:
        with store.health.as_unavailable():
            await asyncio.wait_for(store.call(ping, store.engine), CHECK_SECONDS)
            if cluster is not None:
                await asyncio.wait_for(cluster.log.ping(), CHECK_SECONDS)
        store.health.answered()
        checks["database"] = True
    except (Refused, TimeoutError):
        checks["database"] = False
    if cluster is not None:
        checks["redis"] = await cluster.ready()
    status = ("unavailable" if not checks["database"]
              else "ready" if all(checks.values()) else "degraded")
    return JSONResponse({"status": status, "checks": checks},
                        status_code=503 if status == "unavailable" else 200)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    return Response(generate_latest(request.app.state.metrics.registry),
                    media_type=CONTENT_TYPE_LATEST)
