"""The tables of outside bots (SQLAlchemy 2 Core): API tokens, each bot's inbox of
events, the arena's seeks, and challenges between players (people and bots).

A bot is an account marked as one (``players.bot``, player_tables.py): it plays only
through its API tokens, never as a person. Tokens are shown once; the database keeps
only their SHA-256. ``bot_events`` is each bot's inbox (a game found, a challenge):
written by whichever worker made the event, read by the worker the bot polls.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

api_tokens = Table(
    "api_tokens", metadata,
    Column("id", String(24), primary_key=True),  # public: named in lists and revocation
    Column("token_hash", String(64), nullable=False, unique=True),  # SHA-256 of the secret
    Column("player_id", String(40), nullable=False),
    Column("label", String(64), nullable=False),
    Column("scopes", Text, nullable=False),  # space-separated: play challenge
    Column("per_minute", Integer, nullable=False),  # the token's request limit
    Column("created", Float, nullable=False),
    Column("used", Float),  # the last request (at most once a minute written)
    Column("revoked", Float),
    Index("ix_api_tokens_player", "player_id"),
)

bot_events = Table(
    "bot_events", metadata,
    Column("pk", Integer, primary_key=True, autoincrement=True),  # the events' order
    Column("player_id", String(40), nullable=False),
    Column("created", Float, nullable=False),
    Column("body", Text, nullable=False),  # JSON: {"type": ..., ...} (docs/bots.md)
    Index("ix_bot_events_player", "player_id", "pk"),
)

arena_seeks = Table(
    "arena_seeks", metadata,
    Column("player_id", String(40), primary_key=True),  # one seek per bot
    Column("game", String(16), nullable=False),
    Column("players", Integer),  # null: any number
    Column("preset", String(32), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("name", String(64), nullable=False),
    Column("since", Float, nullable=False),
    Column("seen", Float, nullable=False),  # the bot's last poll: online while recent
    Column("table_id", String(64)),  # seated (or "pending:..." while being made)
    Index("ix_arena_seeks_open", "game", "table_id", "since"),
)

arena_tables = Table(  # the arena's tables: counted against ``serve --arena-tables``
    "arena_tables", metadata,
    Column("table_pk", Integer, primary_key=True),
    Column("public_id", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Float),  # its game kept (played_games): no longer counted
    Index("ix_arena_tables_open", "finished", "created"),
)

challenges = Table(
    "challenges", metadata,
    Column("id", String(24), primary_key=True),
    Column("from_id", String(40), nullable=False),
    Column("to_id", String(40), nullable=False),
    Column("game", String(16), nullable=False),
    Column("players", Integer, nullable=False),  # seats; beyond the two, house bots
    Column("preset", String(32), nullable=False),
    Column("turn_seconds", Float),
    Column("state", String(12), nullable=False),  # open accepted declined cancelled expired
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("table_id", String(64)),
    Column("from_seat", Text),  # "<seat>:<token>" for the challenger, taken once
    Index("ix_challenges_to", "to_id", "state"),
    Index("ix_challenges_from", "from_id", "state"),
)
