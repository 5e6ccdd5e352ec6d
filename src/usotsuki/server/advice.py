"""The suggested move, asked for by a seat at its turn (ws ``suggest``): the adviser's
move (the terminal's ``hint``: the shipped expert's search) and a short reason the
player can check.

The adviser takes ~30 ms (Bluff) to ~130 ms (Liar Game) of CPU a turn, so it runs in a
worker process as the bots do (the lobby's ``adviser``, a
:class:`usotsuki.server.bot_runner.BotRunner`), never on the event loop. It reads the
asking seat's view alone, so a suggestion says nothing of the others' hidden cards; the
answer goes to the asking socket only. Where a table's hints are off
(``Table.hints_allowed``: the host's choice, and every rated table) there is none.
In a cluster the socket's worker computes it from its copy of the table (the log's
events, as the hint's state message is), so a follower needs no relay.
"""

from __future__ import annotations

from typing import Any

from usotsuki.games import game as game_entry
from usotsuki.server.bot_runner import BotFault, BotRunner
from usotsuki.server.tables import Client, Refused, Table


def suggestion(game: str, view: Any, legal: Any) -> dict[str, Any]:
    """In a worker: the adviser's move for ``view`` as canonical text, and its reason as
    a key of the game's ``REASONS`` with arguments (the browser words it in each
    language) and in English."""
    if game == "bluff":
        from usotsuki.bots.bluff import hints as bluff_hints

        call = bluff_hints.bluff_hint(view, legal).suggestion
        key, args = bluff_hints.reason_of(view, call)
        move, text = game_entry(game).format_action(call), bluff_hints.REASONS[key]
    else:
        from usotsuki.bots.liar import hints as liar_hints

        play = liar_hints.suggest(view, legal)
        key, args = liar_hints.reason_of(view, play)
        move, text = game_entry(game).format_action(play), liar_hints.REASONS[key]
    return {"move": move, "reason": key, "args": args, "text": text.format(**args)}


async def suggest(table: Table, client: Client, adviser: BotRunner) -> dict[str, Any]:
    """The ``suggestion`` message for the client's seat at its turn (``n``: the last
    event it follows; the position may have moved on by the time it arrives); raises
    :class:`Refused` when there is none to give."""
    seat = client.seat
    if seat is None:
        raise Refused("forbidden", "only a seated player may ask for a suggestion", 403)
    if not table.hints_allowed:
        raise Refused("no_hints", "hints are off at this table", 409)
    async with table.lock:
        slot = table.current
        session = None if slot is None else slot.session
        if slot is None or session is None or session.state is None or session.to_move != seat:
            raise Refused("not_your_turn", "a suggestion is given at your turn only", 409)
        view, legal, n = session.view(seat), session.legal(), len(table.events) - 1
    try:
        found = await adviser.run(suggestion, table.game, view, legal)
    except BotFault as fault:  # (not ``unavailable``: that tells a client to reconnect)
        raise Refused("busy", f"the adviser {fault.reason}: ask again", 503) from None
    return {"type": "suggestion", "n": n, "game": slot.number, **found}
