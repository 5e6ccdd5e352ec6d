"""What the server refused, and when this client stops trying (PROTOCOL.md, Errors)."""

from __future__ import annotations

from typing import Any

# Codes after which the same request may simply be sent again (the server changed
# nothing): the server is busy or cannot reach its database or the table's owner now, or
# the caller went past a rate (nginx's, a bot token's): come back after ``Retry-After``.
RETRYABLE = frozenset({"unavailable", "busy", "rate_limited", "too_many_requests"})


class ClientError(Exception):
    """Anything this client gives up on."""


class ServerError(ClientError):
    """A refusal from the server: its ``code`` (PROTOCOL.md), English ``message``,
    ``params``, the HTTP ``status`` (None on a WebSocket) and its ``retry_after`` hint in
    seconds (None when it gave none)."""

    def __init__(self, code: str, message: str, *, status: int | None = None,
                 params: dict[str, Any] | None = None,
                 retry_after: float | None = None) -> None:
        where = f"HTTP {status} " if status is not None else ""
        super().__init__(f"{where}{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.params = params or {}
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.code in RETRYABLE or self.status == 503

    @classmethod
    def from_frame(cls, frame: dict[str, Any]) -> ServerError:
        """From a WebSocket ``error`` message."""
        return cls(str(frame.get("code")), str(frame.get("message", "")),
                   params=frame.get("params") or {},
                   retry_after=_seconds(frame.get("retry_after")))


class SeatLost(ClientError):
    """The socket was closed for good: the table is unknown (4404) or expired, the
    token holds no seat (4403), or the seat changed hands (``left``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class GaveUp(ClientError):
    """Retries ran out (``RetryPolicy``): ``last`` is the failure of the last attempt."""

    def __init__(self, what: str, attempts: int, last: BaseException | None) -> None:
        super().__init__(f"gave up on {what} after {attempts} attempts: {last}")
        self.attempts = attempts
        self.last = last


class PolicyError(ClientError):
    """The policy chose what the seat may not do (an action id outside the mask): the
    table goes on without it (stand-ins), so the bot stops rather than guess."""


class AnswerLost(ClientError):
    """A request that is not safe to repeat (creating a table, joining) reached the
    server but its answer did not come back: whether it was made is unknown."""


def _seconds(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None


def retry_after_header(value: str | None) -> float | None:
    """The ``Retry-After`` header's delay in seconds (the HTTP-date form is not used by
    this server and is read as no hint)."""
    if value is None:
        return None
    try:
        return _seconds(float(value))
    except ValueError:
        return None
