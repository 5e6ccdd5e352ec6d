"""The HTTP answer of a refusal: ``{"error", "message", "params"}`` with its status; a
retryable one (``unavailable``) also says when to try again, in ``retry_after`` and the
``Retry-After`` header (whole seconds)."""

from __future__ import annotations

import math
from typing import Any

from fastapi.responses import JSONResponse

from usotsuki.server.config import Refused


def refused_response(exc: Refused) -> JSONResponse:
    body: dict[str, Any] = {"error": exc.code, "message": exc.message, "params": exc.params}
    headers = None
    if exc.retry_after is not None:
        body["retry_after"] = exc.retry_after
        headers = {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}
    return JSONResponse(body, status_code=exc.status, headers=headers)
