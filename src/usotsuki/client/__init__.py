"""A reference client of the game server, written from PROTOCOL.md alone (asyncio,
httpx, websockets; it never imports the server).

``Api`` makes tables and seats over HTTP; ``Seat`` keeps one seat's WebSocket across
drops and restarts, resuming the stream with ``since=n`` and sending each action with a
key until it is answered; ``play`` runs a policy (a seat's view in, an action out) at a
seat. Failures the server says are passing (``unavailable``, HTTP 503, a dropped socket)
are retried with exponential backoff and full jitter, honouring its ``retry_after``
(``RetryPolicy``); the others raise ``ServerError``, ``SeatLost`` or ``GaveUp``.

An outside bot (docs/bots.md) uses ``BotClient`` (the Bot API with its token: the
bot's events, seeking a game, challenges, resigning) and ``run_bot``, which seeks and
plays games with a policy; ``usotsuki.client.adapters`` plays a policy of the research
environments' spaces (``env_policy``) or a bot of the package's protocol
(``bot_policy``) at a seat.

    async with BotClient("https://usotsuki.example", token) as bot:
        await run_bot(bot, lambda turn: turn.legal[0], Seeking("bluff", 2), games=10)

    async with Api("http://127.0.0.1:8000") as api:
        table = await api.create_table("bluff", [None, "normal"])
        joined = await api.join(table.invite, "ann")
        await api.start(table.table_id, joined.token)
        async with Seat(api.base_url, table.table_id, joined.token) as seat:
            await play(seat, lambda turn: turn.legal[0])
"""

from usotsuki.client.bot import BotClient, GameSeat, Me
from usotsuki.client.errors import (
    AnswerLost,
    ClientError,
    GaveUp,
    PolicyError,
    SeatLost,
    ServerError,
)
from usotsuki.client.http import Api, Created, Joined
from usotsuki.client.play import Policy, Turn, play
from usotsuki.client.retry import Backoff, RetryPolicy
from usotsuki.client.runner import BotRun, Played, Seeking, run_bot
from usotsuki.client.seat import Messages, Seat

__all__ = ["AnswerLost", "Api", "Backoff", "BotClient", "BotRun", "ClientError", "Created",
           "GameSeat", "GaveUp", "Joined", "Me", "Messages", "Played", "Policy", "PolicyError",
           "RetryPolicy", "Seat", "SeatLost", "Seeking", "ServerError", "Turn", "play",
           "run_bot"]
