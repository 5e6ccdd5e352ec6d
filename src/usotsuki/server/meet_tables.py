"""The tables of meeting people (SQLAlchemy 2 Core): the public lobby's listings, the
quick-match queue, table chat with its reports, per-player mutes and moderators'
sanctions; and the puzzles' Glicko-2 ratings, each player's per game and each puzzle's.

``table_listings`` is derived: each table's writer keeps its table's row current (seats
taken, status, spectators), so any worker of a cluster lists every open and live table
with one query; the table's log stays the truth for the game. The other tables are the
truth for what they hold. Reactions are not stored: they are moments, not records.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

table_listings = Table(
    "table_listings", metadata,
    Column("table_pk", Integer, primary_key=True),  # store.tables.pk
    Column("public_id", String(64), nullable=False, unique=True),
    Column("game", String(16), nullable=False),
    Column("visibility", String(8), nullable=False),  # public | invite
    Column("status", String(8), nullable=False),  # waiting | playing | finished | closed
    Column("seats", Integer, nullable=False),
    Column("seated", Integer, nullable=False),  # seats taken, by people or bots
    Column("people", Integer, nullable=False),  # people seated
    Column("rules", Text, nullable=False),  # JSON: the table's rules, as created
    Column("turn_seconds", Float),  # a person's time per turn; null: no clock
    Column("rated", Boolean, nullable=False),
    Column("rating_low", Float),  # the seated people's shown ratings (rated tables)
    Column("rating_high", Float),
    Column("spectators", Integer, nullable=False),
    Column("host", String(64)),  # the host's shown name
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_table_listings_open", "visibility", "status", "updated"),
)

match_seekers = Table(
    "match_seekers", metadata,
    Column("player_id", String(40), primary_key=True),  # one seek a player: never seated twice
    Column("game", String(16), nullable=False),
    Column("players", Integer),  # null: any number
    Column("preset", String(32), nullable=False),  # a rules preset's name
    Column("rated", Boolean, nullable=False),
    Column("rating", Float, nullable=False),  # the shown rating when the seek began
    Column("bots", String(8), nullable=False),  # ask | yes | no: fill empty seats with bots
    Column("name", String(64), nullable=False),
    Column("since", Float, nullable=False),
    Column("seen", Float, nullable=False),  # the seeker's last sign of life; stale seeks go
    Column("table_id", String(64)),  # set when matched: the table's public id
    Column("seat_token", Text),  # the matched seat's token, handed over once, then cleared
    Index("ix_match_seekers_open", "game", "table_id", "since"),
)

chat_messages = Table(
    "chat_messages", metadata,
    Column("pk", Integer, primary_key=True, autoincrement=True),
    Column("table_pk", Integer, nullable=False),
    Column("channel", String(12), nullable=False),  # players | spectators
    Column("player_id", String(40)),
    Column("name", String(64), nullable=False),  # the name shown when it was written
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_chat_messages_table", "table_pk", "pk"),
)

chat_reports = Table(
    "chat_reports", metadata,
    Column("pk", Integer, primary_key=True, autoincrement=True),
    Column("message_pk", Integer, nullable=False),
    Column("reporter_id", String(40), nullable=False),
    Column("reason", Text),
    Column("context", Text, nullable=False),  # JSON: the messages around it
    Column("at", Float, nullable=False),
    Column("handled", Float),
    Index("ix_chat_reports_open", "handled", "at"),
)

player_mutes = Table(
    "player_mutes", metadata,
    Column("player_id", String(40), primary_key=True),  # who muted
    Column("muted_id", String(40), primary_key=True),  # whom
    Column("at", Float, nullable=False),
)

sanctions = Table(
    "sanctions", metadata,
    Column("pk", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(40), nullable=False),
    Column("kind", String(8), nullable=False),  # mute (no chat, no reactions) | ban (no play)
    Column("reason", Text),
    Column("by", String(64)),  # the admin who gave it
    Column("at", Float, nullable=False),
    Column("until", Float),  # null: until lifted
    Column("lifted", Float),
    Index("ix_sanctions_player", "player_id", "kind"),
)

puzzle_players = Table(
    "puzzle_players", metadata,
    Column("player_id", String(40), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

puzzle_ratings = Table(
    "puzzle_ratings", metadata,
    Column("puzzle_id", String(40), primary_key=True),  # a shipped puzzle's id
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)
