"""A table's audience: its sockets (players and spectators), and what each may be told.

Every message a table sends goes through here: the events each seat may see
(``visible_to``), each seat's state encoded once however many sockets it has, the
table's facts when a seat's change, and the spectators' count at most once per
``spectator_batch`` seconds. A socket whose token no longer holds its seat hears
``left`` and is closed before a word of the seat's next holder reaches it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from usotsuki.core.events import visible_to
from usotsuki.server.wire import Client, Numbered, encode

if TYPE_CHECKING:
    from usotsuki.server.table import Table


class Audience:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.clients: set[Client] = set()
        self._announced: dict[str, Any] | None = None  # the last "table" message's facts
        self._batch: asyncio.Task[None] | None = None  # the spectators' next announcement

    def holds(self, client: Client) -> bool:
        """Whether a seated client's token still holds its seat (spectators: always)."""
        return client.seat is None or self.table.holds(client.seat, client.holder)

    def evict_former_holders(self) -> None:
        """Close every socket whose token no longer holds its seat (``left``, then 1000):
        it must hear nothing more of the seat, whoever plays it now."""
        for client in list(self.clients):
            if not self.holds(client):
                self.evict(client)

    def evict(self, client: Client) -> None:
        if client not in self.clients:  # evicted already, or gone
            return
        self.clients.discard(client)
        client.send({"type": "error", "code": "left", "message": "you left the table"})
        client.close()

    def publish(self, fresh: list[Numbered]) -> None:
        """Each client: the fresh events its seat may see, then its seat's state. Each
        seat's state is encoded once, whatever number of sockets it has; the clients
        that show the hint (it costs milliseconds) get theirs last, so that nobody else
        waits for it."""
        states: dict[tuple[int | None, bool], str] = {}
        for client in sorted(self.clients, key=lambda c: c.hints):
            if not self.holds(client):
                self.evict(client)  # its seat changed hands: not a word of the new one's
                continue
            for e in fresh:
                if visible_to(e, client.seat):
                    client.send_text(e.wire)
            key = (client.seat, client.hints)
            if (text := states.get(key)) is None:
                text = states[key] = encode(self.table.state_message(client.seat,
                                                                     client.hints))
            client.send_text(text)

    def announce(self, skip: Client | None = None) -> None:
        """Tell every client the table's facts, if a seat's changed. Spectators coming
        and going change only their count: that is sent at most once per
        ``spectator_batch`` seconds, to everyone at once (not once per socket). The
        lobby's listing of the table is told either way."""
        self.table.list_changed()
        facts = self.table.summary()
        spectators = facts.pop("spectators")
        if facts == self._announced:
            if self._batch is None:
                self._batch = asyncio.get_running_loop().create_task(self._spectators_later())
            return
        self._announced = facts
        self.send_all(encode({"type": "table", "table": {**facts, "spectators": spectators}}),
                      skip)

    async def _spectators_later(self) -> None:
        await self.table.clock.sleep(self.table.settings.spectator_batch)
        self._batch = None
        self.send_all(encode({"type": "table", "table": self.table.summary()}))

    def send_all(self, text: str, skip: Client | None = None) -> None:
        for client in list(self.clients):
            if client is not skip:
                client.send_text(text)

    def close_all(self, message: dict[str, Any]) -> None:
        """Tell every client ``message`` and close its socket (the table is unloaded)."""
        for client in list(self.clients):
            client.send(message)
            client.close()

    def stop(self) -> None:
        if self._batch is not None:
            self._batch.cancel()
