"""Operations: liveness (``/healthz``), readiness (``/readyz``), Prometheus ``/metrics``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from usotsuki.server.store import Store

router = APIRouter(include_in_schema=False)


def _ping(store: Store) -> None:
    with store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process answers (its event loop turns)."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready for traffic: the database answers, and Redis too when there is a cluster."""
    checks: dict[str, bool] = {}
    store: Store = request.app.state.store
    try:
        await store.call(_ping, store)
        checks["database"] = True
    except Exception:
        checks["database"] = False
    cluster = request.app.state.cluster
    if cluster is not None:
        checks["redis"] = await cluster.ready()
    ready = all(checks.values())
    return JSONResponse({"status": "ready" if ready else "unavailable", "checks": checks},
                        status_code=200 if ready else 503)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    return Response(generate_latest(request.app.state.metrics.registry),
                    media_type=CONTENT_TYPE_LATEST)
