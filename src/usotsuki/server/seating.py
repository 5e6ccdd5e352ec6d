"""A table made for players chosen by the server (quick match, the arena, a challenge):
created, each player joined to their seat, the game begun; undone if any step fails."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from usotsuki.server.auth import token_hash
from usotsuki.server.lobby import Lobby
from usotsuki.server.table import Table


@dataclass(frozen=True, slots=True)
class Sitter:
    """A player to seat: their id and the name shown at the table."""

    player_id: str
    name: str


async def seated_table(lobby: Lobby, game: str, config: dict[str, Any],
                       order: Sequence[Sitter | str], address: str | None = None
                       ) -> tuple[Table, dict[str, tuple[int, str]]]:
    """A table of ``game`` with ``config`` whose seat ``i`` is ``order[i]``: a player, or a
    house bot's level; its first game begun. Answers the table and each player's seat and
    token. Should a player's seat or the start fail, the players are unseated (a table
    whose game never began holds nobody) and the error raised; a start that failed only
    in its answer (the log holds it) is a table like any other. ``address``: the client
    address held to the creation quotas, as if it had created the table itself."""
    table, _host = await lobby.create(game, config,
                                      [s if isinstance(s, str) else None for s in order],
                                      address)
    seats: dict[str, tuple[int, str]] = {}
    try:
        for number, sitter in enumerate(order):
            if isinstance(sitter, Sitter):
                seats[sitter.player_id] = await table.join(sitter.name, number,
                                                           sitter.player_id)
        await lobby.start_game(table, rematch=False)
    except Exception:
        with contextlib.suppress(Exception):
            await table.serialised(_nothing)  # a start whose answer was lost: read back
        if table.games:  # the game began all the same: its players must hear of it
            return table, seats
        await _unseat(table, seats)
        raise
    except BaseException:  # (cancelled: nothing more is awaited but the unseating)
        if not table.games:
            await _unseat(table, seats)
        raise
    return table, seats


async def _unseat(table: Table, seats: dict[str, tuple[int, str]]) -> None:
    """Each seated player leaves (a table whose game never began holds nobody)."""
    for seat, token in seats.values():
        with contextlib.suppress(Exception):
            await table.leave(seat, token_hash(token))


async def _nothing() -> None:
    """A command that changes nothing: run under the table's lock, after the read-back of
    any write whose outcome is unknown (``Table.settle``)."""
