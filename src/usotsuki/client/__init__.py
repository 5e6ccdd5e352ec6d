"""A reference client of the game server, written from PROTOCOL.md alone (asyncio,
httpx, websockets; it never imports the server).

``Api`` makes tables and seats over HTTP; ``Seat`` keeps one seat's WebSocket across
drops and restarts, resuming the stream with ``since=n`` and sending each action with a
key until it is answered; ``play`` runs a policy (a seat's view in, an action out) at a
seat. Failures the server says are passing (``unavailable``, HTTP 503, a dropped socket)
are retried with exponential backoff and full jitter, honouring its ``retry_after``
(``RetryPolicy``); the others raise ``ServerError``, ``SeatLost`` or ``GaveUp``.

    async with Api("http://127.0.0.1:8000") as api:
        table = await api.create_table("bluff", [None, "normal"])
        joined = await api.join(table.invite, "ann")
        await api.start(table.table_id, joined.token)
        async with Seat(api.base_url, table.table_id, joined.token) as seat:
            await play(seat, lambda turn: turn.legal[0])
"""

from usotsuki.client.errors import AnswerLost, ClientError, GaveUp, SeatLost, ServerError
from usotsuki.client.http import Api, Created, Joined
from usotsuki.client.play import Policy, Turn, play
from usotsuki.client.retry import Backoff, RetryPolicy
from usotsuki.client.seat import Messages, Seat

__all__ = ["AnswerLost", "Api", "Backoff", "ClientError", "Created", "GaveUp", "Joined",
           "Messages", "Policy", "RetryPolicy", "Seat", "SeatLost", "ServerError", "Turn", "play"]
