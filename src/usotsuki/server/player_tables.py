"""The tables of players: identities, sessions, login throttling, every finished game
with its seats' identities and results, and ratings (SQLAlchemy 2 Core).

A player is a guest (made on a browser's first visit), an account (a guest that signed
up: the same row, so its games stay its own) or a bot level (``bot:<game>:<level>``, so
bots are rated like people). ``played_games`` and ``played_seats`` are derived from the
tables' logs (a finished game's record and places), written once per game by the table's
writer; the log stays the truth.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", String(40), primary_key=True),  # public: profile URLs name it
    Column("kind", String(8), nullable=False),  # guest | account | bot
    Column("name", String(64), nullable=False),  # the display name (an account's username)
    Column("name_key", String(64), unique=True),  # accounts and bots: NFKC + casefold
    Column("password_hash", Text),  # argon2id, accounts only
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("deleted", Float),  # an account deleted: anonymised, its games kept
    # An account marked as a bot: it plays through API tokens only (bot_tables.py)
    Column("bot", Boolean, nullable=False, server_default=false()),
    # A person who takes challenges from bots (they see them and may accept)
    Column("bot_challenges", Boolean, nullable=False, server_default=false()),
)

sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the cookie's secret
    Column("player_id", String(40), nullable=False),
    Column("csrf", String(64), nullable=False),  # the session's CSRF token
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_sessions_player", "player_id"),
    Index("ix_sessions_expires", "expires"),  # the hourly sweep of expired sessions
)

login_failures = Table(
    "login_failures", metadata,
    # "account:<name_key>" | "address:<ip>" (failed logins) | "guests:<ip>" (new guests)
    Column("key", String(128), primary_key=True),
    Column("since", Float, nullable=False),  # the window's start
    Column("failures", Integer, nullable=False),
)

played_games = Table(
    "played_games", metadata,
    Column("pk", Integer, primary_key=True, autoincrement=True),
    Column("table_pk", Integer, nullable=False),
    Column("number", Integer, nullable=False),  # the game's number at its table
    Column("game", String(16), nullable=False),  # bluff | liar
    Column("rules", Text, nullable=False),  # JSON: the record's rules
    Column("players", Integer, nullable=False),
    Column("finished", Float, nullable=False),
    Column("public", Boolean, nullable=False),  # a public table's game: anyone may see it
    Column("rated", Boolean, nullable=False),
    Column("record", Text, nullable=False),  # the Part 4 record (JSON)
    # An arena game (arena.py): rated in the arena's own pool, never the people's
    Column("arena", Boolean, nullable=False, server_default=false()),
    Index("ux_played_games_table_number", "table_pk", "number", unique=True),
    Index("ix_played_games_finished", "finished"),
)

played_seats = Table(
    "played_seats", metadata,
    Column("game_pk", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(40)),  # null: nobody known (a seat of an old table)
    Column("game", String(16), nullable=False),  # copied from played_games for the indexes
    Column("finished", Float, nullable=False),  # copied from played_games for the indexes
    Column("public", Boolean, nullable=False),  # copied from played_games for the indexes
    Column("name", String(64), nullable=False),  # the name shown at the table
    Column("bot", String(32)),  # the bot level that played the seat at the end
    Column("place", Integer, nullable=False),  # 1 = first; a leaver of a rated game: last
    Column("left", Boolean, nullable=False),
    Column("rating_before", Float),  # the shown rating (rated games only)
    Column("rating_after", Float),
    # A player's games of one kind, newest first, each visibility apart (profiles.py
    # merges the ranges), with their places (the games both of two players played are
    # counted from it alone).
    Index("ix_played_seats_player", "player_id", "game", "public", "finished", "game_pk",
          "place", "left"),
)

player_places = Table(  # played_seats counted, kept with them: a profile reads a few rows
    "player_places", metadata,
    Column("player_id", String(40), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("public", Boolean, primary_key=True),
    Column("place", Integer, primary_key=True),
    Column("games", Integer, nullable=False),
    Column("left", Integer, nullable=False),  # of them left mid-game
)

ratings = Table(
    "ratings", metadata,
    Column("player_id", String(40), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Float, nullable=False),  # the one number players read
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_game_shown", "game", "shown"),
)
