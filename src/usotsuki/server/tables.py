"""Where the server's table machinery lives, by job (this module only re-exports it):

- :mod:`usotsuki.server.wire`: encoded messages, numbered events, clients' queues;
- :mod:`usotsuki.server.auth`: tokens;
- :mod:`usotsuki.server.table`: a table, its fold of the log and its commands;
- :mod:`usotsuki.server.log`: where a table's commands are written (one worker, a cluster);
- :mod:`usotsuki.server.audience`: a table's sockets and what each is told;
- :mod:`usotsuki.server.turns`: bots' turns, turn limits and stand-ins;
- :mod:`usotsuki.server.bot_runner`: bot decisions in worker processes, with a deadline;
- :mod:`usotsuki.server.lobby`: every table, lazy loading, expiry and quotas;
- :mod:`usotsuki.server.config`: settings, the clock, ``Refused``.
"""

from usotsuki.server.auth import new_token, token_hash
from usotsuki.server.bot_runner import BotFault, BotRunner
from usotsuki.server.config import Clock, RealClock, Refused, Settings
from usotsuki.server.lobby import Lobby
from usotsuki.server.table import GameSlot, Table
from usotsuki.server.turns import STAND_INS, stand_in
from usotsuki.server.wire import QUEUE_LIMIT, Client, Numbered, encode

__all__ = ["QUEUE_LIMIT", "STAND_INS", "BotFault", "BotRunner", "Client", "Clock", "GameSlot",
           "Lobby", "Numbered", "RealClock", "Refused", "Settings", "Table", "encode",
           "new_token", "stand_in", "token_hash"]
