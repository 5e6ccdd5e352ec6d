"""A table's moments on its sockets: chat lines and reactions (PROTOCOL.md "Chat and
reactions").

Chat needs an identity (the session cookie the socket came with): each line is stored
(``chat_store``) before anyone is told of it, then sent to this worker's sockets and
shared with the table's sockets on other workers (``Table.share``). Players write in the
players' channel, which everyone at the table reads; spectators in theirs, which only
spectators read. A socket is told nothing from the players its player muted. Reactions
are a fixed set, shown at the reacting seat, never stored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection

from usotsuki.server import chat_store, sanctions
from usotsuki.server.config import Refused
from usotsuki.server.identity import current_player
from usotsuki.server.wire import Client, encode

if TYPE_CHECKING:
    from usotsuki.server.table import Table

REACTIONS = ("hello", "nice_bluff", "really", "laugh", "wow", "oops", "thinking",
             "good_game")
"""The reactions a seated player may send (the pages say each in their language)."""


def may_read(client: Client, message: dict[str, Any]) -> bool:
    """Whether the socket is told this moment: not from a player it muted; a
    spectators' line only to spectators."""
    body = message.get("line", message)  # (a chat message's line, or a reaction)
    if body.get("player") in client.muted:
        return False
    return body.get("channel") != "spectators" or client.seat is None


def deliver(table: Table, message: dict[str, Any]) -> None:
    """Tell this worker's sockets at the table of a moment (each as it may read it); a
    player's new mutes go to that player's sockets only."""
    text = encode(message)
    if message["type"] == "muted":
        for client in list(table.clients):
            if client.player == message["player"]:
                client.muted = set(message["muted"])
                client.send_text(text)
        return
    for client in list(table.clients):
        if may_read(client, message):
            client.send_text(text)


def _spread(table: Table, message: dict[str, Any]) -> None:
    deliver(table, message)
    table.share(message)


async def identify(connection: HTTPConnection, table: Table, client: Client) -> None:
    """Who the socket's browser is (its session cookie), whom that player muted, and the
    table's recent chat it may read (``chat_history``, sent after the catch-up)."""
    player = await current_player(connection)
    if player is None:
        return
    client.player, client.name = player.id, player.name
    store = table.store
    client.muted = await store.call(chat_store.mutes, store.engine, player.id)
    channels = chat_store.CHANNELS if client.seat is None else ("players",)
    seats = {s.player_id: s.seat for s in table.seats if s.player_id is not None}
    lines = await store.call(chat_store.history, store.engine, table.row.pk, channels,
                             client.muted, seats)
    client.send({"type": "chat_history", "messages": [m.to_json() for m in lines],
                 "muted": sorted(client.muted), "you": player.id})


def _speaker(table: Table, client: Client) -> str:
    """The socket's player, if it may speak at the table now."""
    if client.player is None:
        raise Refused("no_player", "chat needs an identity: open the page with its "
                      "session cookie (GET /api/me first)", 401)
    return client.player


async def chat(table: Table, client: Client, text: Any) -> None:
    """A line of chat from the socket: checked, stored, then told."""
    player = _speaker(table, client)
    if not table.chat_on:
        raise Refused("chat_off", "the host has turned the chat off at this table", 409)
    text = chat_store.clean_text(text)
    now = table.clock.time()
    store = table.store
    await store.call(sanctions.refuse_muted, store.engine, player, now)
    if client.seat is None:
        channel, name = "spectators", client.name or "?"
    else:
        channel, name = "players", table.shown_names()[client.seat] or client.name or "?"
    line = await store.call(chat_store.post, store.engine, table.row.pk, channel, player,
                            name, text, now, client.seat)
    _spread(table, {"type": "chat", "line": line.to_json()})


async def react(table: Table, client: Client, reaction: Any) -> None:
    """A seated player's reaction: shown at its seat to everyone at the table."""
    if client.seat is None:
        raise Refused("spectator", "spectators cannot react", 403)
    player = _speaker(table, client)
    if reaction not in REACTIONS:
        raise Refused("bad_reaction", f"a reaction is one of {', '.join(REACTIONS)}", 400,
                      {"known": list(REACTIONS)})
    store = table.store
    await store.call(sanctions.refuse_muted, store.engine, player, table.clock.time())
    _spread(table, {"type": "reaction", "seat": client.seat, "player": player,
                    "reaction": reaction})


async def mute(table: Table, client: Client, other: Any, on: Any) -> None:
    """The socket's player mutes (``on``) or unmutes another; its sockets at the table,
    on every worker, hear of it at once (``muted``); elsewhere, as they connect."""
    player = _speaker(table, client)
    if not isinstance(other, str) or not other or len(other) > 40:
        raise Refused("bad_mute", "player must be a player's id")
    if not isinstance(on, bool):
        raise Refused("bad_mute", "on must be true or false")
    store = table.store
    if on:
        await store.call(chat_store.mute, store.engine, player, other, table.clock.time())
    else:
        await store.call(chat_store.unmute, store.engine, player, other)
    muted = await store.call(chat_store.mutes, store.engine, player)
    _spread(table, {"type": "muted", "player": player, "muted": sorted(muted)})
