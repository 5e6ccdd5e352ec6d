"""``usotsuki serve``: run the game server under uvicorn."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from usotsuki.core.errors import InvalidRules


@dataclass(frozen=True)
class Limits:
    """The server's bounds (``usotsuki serve --help``); see ``config.Settings``."""

    bot_workers: int = 1
    bot_deadline: float = 5.0
    tables_per_minute: int = 10
    open_tables: int = 20
    bot_games: int = 4
    idle_hours: float = 24.0
    bot_idle_cpu: bool = True

    def problem(self) -> str | None:
        if self.bot_workers < 1 or self.bot_deadline <= 0:
            return "--bot-workers must be >= 1 and --bot-deadline > 0"
        if min(self.tables_per_minute, self.open_tables, self.bot_games) < 0:
            return "--tables-per-minute, --open-tables and --bot-games must be >= 0"
        if self.idle_hours <= 0:
            return "--idle-hours must be > 0"
        return None


def run_server(host: str, port: int, db: str | None, bot_delay: float,
               turn_seconds: float | None, deal_seed: int | None = None,
               limits: Limits | None = None) -> int:
    """Serve until interrupted; returns the exit code (2 for a bad option)."""
    import uvicorn

    from usotsuki.server.app import create_app, default_db
    from usotsuki.server.config import Settings
    from usotsuki.server.store import Store

    if bot_delay < 0 or (turn_seconds is not None and turn_seconds <= 0):
        print("error: --bot-delay must be >= 0 and --turn-seconds > 0", file=sys.stderr)
        return 2
    limits = limits or Limits()
    if (problem := limits.problem()) is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if db is None:
        path = default_db()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = str(path)
    elif "://" not in db:
        Path(db).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    try:
        store = Store(db)
    except (InvalidRules, ValueError, OSError) as exc:
        print(f"error: cannot open the database {db!r}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a database that cannot be reached: say so, no traceback
        print(f"error: cannot open the database {db!r}: {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return 2
    settings = Settings(bot_delay=bot_delay, turn_seconds=turn_seconds, deal_seed=deal_seed,
                        bot_workers=limits.bot_workers, bot_deadline=limits.bot_deadline,
                        tables_per_minute=limits.tables_per_minute,
                        open_tables=limits.open_tables, bot_tables=limits.bot_games,
                        idle_seconds=limits.idle_hours * 3600,
                        bot_idle=limits.bot_idle_cpu, bot_warm=True)
    app = create_app(store=store, settings=settings)
    where = db if "://" not in db else db.split("@")[-1]
    print(f"usotsuki server on http://{host}:{port}/ (API docs at /docs; data: {where})",
          flush=True)
    # Frames are small JSON: compressing each costs more CPU than it saves on a LAN.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False)
    return 0
