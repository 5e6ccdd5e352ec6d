"""What a transition tells the world, and who may hear it (lila's ``Event.only``).

Each event has an ``audience``: ``None`` for everyone, or the seats that may see it.
Shells (server, terminal) send a seat only the events it is in the audience of.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S")


class Event(Protocol):
    """An event: something that happened, with who may see it."""

    @property
    def audience(self) -> frozenset[int] | None: ...

    def to_json(self) -> dict[str, Any]: ...


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` may see ``event`` (``None`` is a spectator)."""
    audience = event.audience
    return audience is None or (seat is not None and seat in audience)


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see, in order."""
    return [e for e in events if visible_to(e, seat)]


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """The result of applying one action: the next state and what happened (lila Progress)."""

    state: S
    events: tuple[Event, ...]
