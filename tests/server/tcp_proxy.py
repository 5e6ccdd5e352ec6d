"""A TCP proxy on loopback that the tests can cut: a network partition between one
worker and PostgreSQL (tests/server/faults.py). It runs its own event loop in a thread,
so that blocking test code (a cluster's start-up) never holds its traffic up."""

from __future__ import annotations

import asyncio
import threading

from live_helpers import free_port


class TcpProxy:
    """Forwards ``127.0.0.1:port`` to ``target``. :meth:`cut` closes every connection
    through it and refuses new ones (as a peer that vanished: each side sees its
    connection reset) until :meth:`heal`."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._cut = False
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), daemon=True,
                                        name="tcp-proxy")
        self._thread.start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._accept, "127.0.0.1", self.port))
        ready.set()
        self._loop.run_forever()

    async def _accept(self, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter) -> None:
        if self._cut:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, ConnectionError):
            pass
        finally:
            self._writers.discard(writer)
            writer.transport.abort()

    def _abort_all(self) -> None:
        self._cut = True
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    def cut(self) -> None:
        """Reset every connection through the proxy and refuse new ones."""
        done = threading.Event()
        self._loop.call_soon_threadsafe(lambda: (self._abort_all(), done.set()))
        done.wait(10)

    def heal(self) -> None:
        """Let connections through again."""
        self._cut = False

    def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
