"""Where the server's table machinery lives, by job (this module only re-exports it):

- :mod:`usotsuki.server.wire`: encoded messages, numbered events, clients' queues;
- :mod:`usotsuki.server.auth`: tokens;
- :mod:`usotsuki.server.table`: a table, its fold of the log and its commands;
- :mod:`usotsuki.server.bot_runner`: bot decisions in worker processes, with a deadline;
- :mod:`usotsuki.server.lobby`: every table, lazy loading, expiry and quotas;
- :mod:`usotsuki.server.config`: settings, the clock, ``Refused``.
"""

from usotsuki.server.auth import new_token, token_hash
from usotsuki.server.bot_runner import BotFault, BotRunner
from usotsuki.server.config import Clock, RealClock, Refused, Settings
from usotsuki.server.lobby import Lobby
from usotsuki.server.table import STAND_INS, GameSlot, Table, stand_in
from usotsuki.server.wire import QUEUE_LIMIT, Client, Numbered, encode

__all__ = ["QUEUE_LIMIT", "STAND_INS", "BotFault", "BotRunner", "Client", "Clock", "GameSlot",
           "Lobby", "Numbered", "RealClock", "Refused", "Settings", "Table", "encode",
           "new_token", "stand_in", "token_hash"]
