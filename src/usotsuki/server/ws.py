"""The WebSocket protocol (PROTOCOL.md): one receiver loop and one sender task per socket.

The receiver parses each message, runs the command on the table (which checks it with
the rules core and commits it before publishing), and answers errors to this client
only. The sender drains the client's queue, which the table fills with what this seat
may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from usotsuki.core.json_guard import NotJson, TooDeep, escape_lone_surrogates, parse_json
from usotsuki.server import moments
from usotsuki.server.advice import suggest
from usotsuki.server.health import unavailable
from usotsuki.server.problems import refused_response
from usotsuki.server.tables import BotRunner, Client, Lobby, Numbered, Refused, Table, token_hash
from usotsuki.server.wire import Backlog

router = APIRouter()

MAX_MESSAGE_CHARS = 4096
MAX_ID_CHARS = 64
MAX_DEPTH = 8  # messages nest 2 levels; deeper text is refused before it is parsed
BATCH_CHARS = 32768  # a batch frame grows to about this many characters at most
STATE_COST = 20  # a state message answered on request, charged as this many resent events
REACTIONS_PER_SECOND, REACTIONS_BURST = 0.5, 3.0  # a socket's reactions (chat: chat_store)

log = logging.getLogger(__name__)


@dataclass
class RateLimit:
    """A token bucket: ``burst`` tokens at once, ``per_second`` refilled. ``clock`` gives
    seconds (monotonic); tests pass a fake one instead of sleeping. A command costs what
    it makes the server do; one costing more than the burst is allowed when the bucket
    is full and leaves it in debt."""

    per_second: float = 20.0
    burst: float = 40.0
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.last = self.clock()

    def allow(self, cost: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < min(cost, self.burst):
            return False
        self.tokens -= cost
        return True

    def wait(self, cost: float) -> float:
        """Seconds until a command of this cost would be allowed."""
        return max(0.0, min(cost, self.burst) - self.tokens) / self.per_second


# A frame's JSON text made encodable (a lone surrogate, which UTF-8 cannot carry, as its
# ``\\u`` escape); a name of this module so that tests can make sending fail.
wire_text = escape_lone_surrogates


def _error(code: str, message: str, ref: Any = None,
           params: dict[str, Any] | None = None,
           retry_after: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message,
                           "params": params or {}}
    if ref is not None:
        out["id"] = ref
    if retry_after is not None:  # retryable: the same command may be sent again then
        out["retry_after"] = retry_after
    return out


def _refusal(exc: Refused, ref: Any = None) -> dict[str, Any]:
    return _error(exc.code, exc.message, ref, exc.params, exc.retry_after)


async def _deny(websocket: WebSocket, refused: Refused) -> None:
    """Refuse the socket before accepting it: an HTTP answer (``Retry-After`` on a 503)
    that a client reads as "try again later", not a socket that opens and drops."""
    await websocket.send_denial_response(refused_response(refused))


async def _sender(websocket: WebSocket, client: Client,
                  timing: Callable[[str, float], None] | None = None) -> None:
    """Send the client's queue; on any failure say why in the log and close the socket,
    so the receiver loop ends too (it stops once this task is done). ``timing``: observes
    each frame's wait and write (``deliver``)."""
    try:
        while True:
            item = await client.queue.get()
            queued = client.queued_at  # (when this first message was queued)
            if item is None:
                await websocket.close(code=1008 if client.dropped else 1000)
                return
            if isinstance(item, Backlog):
                await _send_pages(websocket, client.batch, item.texts)
                continue
            pending, size = [item], len(item)
            after: Backlog | None = None
            closing = False
            while client.batch and not client.queue.empty() and size < BATCH_CHARS:
                # What is queued already goes in one frame: one system call for the
                # server, the balancer and the client instead of one per message.
                more = client.queue.get_nowait()
                if more is None:
                    closing = True
                    break
                if isinstance(more, Backlog):
                    after = more
                    break
                pending.append(more)
                size += len(more)
            await websocket.send_text(wire_text(_frame(pending)))
            if timing is not None:
                timing("deliver", time.perf_counter() - queued)
            if after is not None:
                await _send_pages(websocket, client.batch, after.texts)
            if closing:
                await websocket.close(code=1008 if client.dropped else 1000)
                return
    except (WebSocketDisconnect, OSError, RuntimeError):
        return  # the client went away (or the socket is closed): nothing to send to
    except Exception:
        log.exception("sender of a WebSocket failed; closing it")
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)
        raise


def _frame(messages: list[str]) -> str:
    """One message as is; several in one "batch" frame."""
    if len(messages) == 1:
        return messages[0]
    return '{"type":"batch","messages":[' + ",".join(messages) + "]}"


async def _send_pages(websocket: WebSocket, batch: bool, texts: list[str]) -> None:
    """A backlog's messages in order: in batch frames of about ``BATCH_CHARS`` characters
    for a client that takes them, else one frame each."""
    page: list[str] = []
    size = 0
    for text in texts:
        if page and (not batch or size + len(text) > BATCH_CHARS):
            await websocket.send_text(wire_text(_frame(page)))
            page, size = [], 0
        page.append(text)
        size += len(text)
    if page:
        await websocket.send_text(wire_text(_frame(page)))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None,
                       since: int = -1, hints: bool = False, batch: bool = False) -> None:
    lobby: Lobby = websocket.app.state.lobby
    health = lobby.store.health
    if not health.reachable:  # nothing could be played: no socket to drop at once
        await _deny(websocket, unavailable())
        return
    try:
        with health.as_unavailable():
            table = await lobby.find(table_id)
    except Refused as exc:
        await _deny(websocket, exc)
        return
    await websocket.accept()
    if table is None:
        await websocket.send_json(_error("not_found", f"no table {table_id!r}"))
        await websocket.close(code=4404)
        return
    seat = table.seat_of(token)
    if token and seat is None:
        await websocket.send_json(_error("forbidden", "this token holds no seat here"))
        await websocket.close(code=4403)
        return
    client = Client(seat, hints, batch, None if seat is None else token_hash(token or ""))
    try:
        async with table.lock:  # no event can slip between the catch-up and the live stream
            with health.as_unavailable():
                await table.settle()
                await table.prepare_socket(since)
            held = seat is None or table.holds(seat, client.holder)  # (not left meanwhile)
            if held:
                table.clients.add(client)
                table.audience.announce(skip=client)  # to the others: this seat is here
                client.send({"type": "welcome", "seat": seat, "table": table.summary()})
                _catch_up(table, client, since)
    except Refused as exc:  # the database went away meanwhile: come back later
        await websocket.send_json(_refusal(exc))
        await websocket.close(code=1013)
        return
    if since >= 0:  # a client back after its socket closed
        websocket.app.state.metrics.reconnects.inc()
    if not held:
        await websocket.send_json(_error("forbidden", "this token holds no seat here"))
        await websocket.close(code=4403)
        return
    table.socket_added()
    sender = asyncio.create_task(_sender(websocket, client, lobby.timing))
    now = websocket.app.state.monotonic
    (rate, burst), (resent, resent_burst) = (websocket.app.state.rate_limit,
                                             websocket.app.state.sync_limit)
    limits = Limits(RateLimit(rate, burst, now), RateLimit(resent, resent_burst, now),
                    RateLimit(REACTIONS_PER_SECOND, REACTIONS_BURST, now))
    try:
        with health.as_unavailable():
            await moments.identify(websocket, table, client)
    except Refused:  # the database went away: the game goes on without the chat's
        log.warning("table %s: a socket's chat history could not be read", table_id)
        # history (a later connection reads it); its lines still come as they are said
    try:
        await _receive(websocket, table, client, limits, sender, lobby.adviser)
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        async with table.lock:
            table.clients.discard(client)
            table.audience.announce()


def _catch_up(table: Table, client: Client, since: int) -> None:
    # However long the table's history, it takes one place in the queue (sent in pages).
    client.send_backlog(table.events_since(client.seat, max(since, -1)))
    client.send(table.state_message(client.seat, client.hints))


@dataclass
class Limits:
    """Per socket: messages, events resent by ``sync`` (its cost), reactions."""

    messages: RateLimit
    resent: RateLimit
    reactions: RateLimit


async def _receive(websocket: WebSocket, table: Table, client: Client, limits: Limits,
                   sender: asyncio.Task[None], adviser: BotRunner) -> None:
    while not sender.done():
        try:
            raw = await websocket.receive()
        except WebSocketDisconnect:
            return
        if raw["type"] == "websocket.disconnect":
            return
        text = raw.get("text")
        if text is None:
            client.send(_error("bad_message", "send JSON text frames, not binary"))
            continue
        if not limits.messages.allow():
            client.send(_error("rate_limited", "too many messages: slow down; "
                               "this one was ignored"))
            continue
        if len(text) > MAX_MESSAGE_CHARS:
            client.send(_error("too_large", f"messages are limited to {MAX_MESSAGE_CHARS} "
                               "characters; this one was ignored"))
            continue
        try:
            with table.store.health.as_unavailable():
                await _handle(table, client, text, limits, time.perf_counter(), adviser)
        except Refused as exc:  # the database away (a command's own refusals are answered
            client.send(_refusal(exc))  # by ``_handle``, with the command's id)


async def _handle(table: Table, client: Client, text: str, limits: Limits,
                  arrived: float, adviser: BotRunner) -> None:
    if client.seat is not None and not table.holds(client.seat, client.holder):
        table.audience.evict(client)  # its seat changed hands: this socket speaks for nobody now
        return
    try:
        message = parse_json(text, MAX_DEPTH)
    except TooDeep as exc:
        client.send(_error("bad_json", f"JSON {exc}"))
        return
    except NotJson as exc:
        client.send(_error("bad_json", f"not JSON: {exc}"))
        return
    if not isinstance(message, dict):
        client.send(_error("bad_message", "a message is a JSON object with a \"type\""))
        return
    ref = message.get("id")
    if ref is not None and not _an_id(ref):
        client.send(_error("bad_message", f"id must be a string or integer of at most "
                           f"{MAX_ID_CHARS} characters"))
        return
    kind = message.get("type")
    if kind == "ping":
        client.send({"type": "pong", "id": ref} if ref is not None else {"type": "pong"})
    elif kind == "sync":
        since = message.get("since", -1)
        if not isinstance(since, int) or isinstance(since, bool):
            client.send(_error("bad_message", "since must be an integer", ref))
            return
        async with table.lock:
            # Rate-limited by its cost, counted before any work: the events it may resend
            # (at most all after ``since``) and the state it answers with.
            resent = max(0, len(table.events) - max(since + 1, 0))
            if not limits.resent.allow(resent + STATE_COST):
                wait = limits.resent.wait(resent + STATE_COST)
                client.send(_error("rate_limited", f"sync would resend {resent} events: "
                                   f"too many at once; try again in {wait:.1f} s", ref))
                return
            client.send_backlog(table.events_since(client.seat, max(since, -1)))
            client.send(table.state_message(client.seat, client.hints))
    elif kind == "act":
        key = message.get("key")
        if key is not None and not _an_id(key):
            client.send(_error("bad_message", f"key must be a string or integer of at most "
                               f"{MAX_ID_CHARS} characters", ref))
            return
        await _act(table, client, message.get("action"), ref, arrived, key)
    elif kind == "hints":
        on = message.get("on")
        if not isinstance(on, bool):
            client.send(_error("bad_message", "on must be true or false", ref))
            return
        if on and not table.hints_allowed:
            client.send(_error("no_hints", "hints are off at rated tables" if table.rated
                               else "the host turned hints off at this table", ref,
                               {"rated": table.rated}))
            return
        if not limits.resent.allow(STATE_COST):  # a state message: charged as a sync's
            client.send(_error("rate_limited", "too many state requests: try again in "
                               f"{limits.resent.wait(STATE_COST):.1f} s", ref))
            return
        async with table.lock:  # the state answered is the table's present one
            client.hints = on
            client.send(table.state_message(client.seat, client.hints))
    elif kind == "suggest":
        if not limits.resent.allow(STATE_COST):  # the adviser's CPU: charged as a sync's
            client.send(_error("rate_limited", "too many suggestions asked: try again in "
                               f"{limits.resent.wait(STATE_COST):.1f} s", ref))
            return
        try:  # (awaited here: one suggestion at a time per socket)
            client.send({**await suggest(table, client, adviser), "id": ref})
        except Refused as exc:
            client.send(_refusal(exc, ref))
    elif kind == "contribute":
        await _contribute(table, client, message.get("value"), ref)
    elif kind == "hurry":
        granted = await table.hurry(client.seat)
        client.send({"type": "hurry", "id": ref, "granted": granted})
    elif kind in ("chat", "react", "mute"):
        await _moment(table, client, message, limits, ref)
    else:
        client.send(_error("unknown_type", f"unknown message type {kind!r} (known: act, "
                           "contribute, sync, ping, hurry, hints, suggest, chat, react, "
                           "mute)", ref))


async def _moment(table: Table, client: Client, message: dict[str, Any], limits: Limits,
                  ref: Any) -> None:
    """Chat, a reaction or a mute (moments.py); a refusal to this client only."""
    try:
        if message["type"] == "chat":
            await moments.chat(table, client, message.get("text"))
        elif message["type"] == "react":
            if not limits.reactions.allow():
                raise Refused("rate_limited", "too many reactions: try again in "
                              f"{limits.reactions.wait(1):.1f} s", 429,
                              retry_after=round(limits.reactions.wait(1), 1))
            await moments.react(table, client, message.get("reaction"))
        else:
            await moments.mute(table, client, message.get("player"), message.get("on"))
    except Refused as exc:
        if exc.code == "unavailable":
            raise
        client.send(_refusal(exc, ref))


def _an_id(value: Any) -> bool:
    return isinstance(value, int | str) and len(str(value)) <= MAX_ID_CHARS


async def _contribute(table: Table, client: Client, value: Any, ref: Any) -> None:
    """A person's random contribution to the present game's deal (docs/fairness.md)."""
    if client.seat is None:
        client.send(_error("spectator", "spectators do not contribute", ref))
        return
    try:
        with table.store.health.as_unavailable():
            await table.contribute(client.seat, value, client.holder or "")
    except Refused as exc:
        if exc.code == "left":
            table.audience.evict(client)
            return
        client.send(_refusal(exc, ref))


async def _act(table: Table, client: Client, action: Any, ref: Any, arrived: float,
               key: str | int | None = None) -> None:
    if client.seat is None:
        client.send(_error("spectator", "spectators cannot act", ref))
        return
    if not isinstance(action, str):
        client.send(_error("bad_action", "action must be a string in RULES.md Part 3 "
                           "notation", ref))
        return
    acked = False

    def ack(fresh: list[Numbered]) -> None:
        # fresh[0] is the action event; the ack follows the events it caused in this
        # queue (queued with them by the table's owner: one batch frame).
        nonlocal acked
        acked = True
        client.send({"type": "ack", "id": ref, "action": fresh[0].action,
                     "n": fresh[-1].n})

    try:
        # (serialised by the table's lock)
        with table.store.health.as_unavailable():
            fresh = await table.act(client.seat, action, client.holder or "", ack, arrived,
                                    key)
    except Refused as exc:
        if exc.code == "left":  # the owner knows the seat changed hands: close it here too
            table.audience.evict(client)
            return
        # Only the actor hears why: the message can name the actor's own cards.
        client.send(_refusal(exc, ref))
        return
    if not acked:  # relayed to the owner: acknowledged once this copy has its events
        ack(fresh)
