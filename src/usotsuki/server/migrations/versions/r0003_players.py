"""Expand: players, sessions, login throttling, played games and ratings.

New tables and one nullable column (``seats.player_id``: who sat there): workers of
0001 and 0002 code run on it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None
oldest_code = "0001"


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), unique=True),
        sa.Column("password_hash", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float))
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False))
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("failures", sa.Integer, nullable=False))
    op.create_table(
        "played_games",
        sa.Column("pk", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_pk", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("record", sa.Text, nullable=False))
    op.create_index("ux_played_games_table_number", "played_games", ["table_pk", "number"],
                    unique=True)
    op.create_index("ix_played_games_finished", "played_games", ["finished"])
    op.create_table(
        "played_seats",
        sa.Column("game_pk", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(40)),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(32)),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Float),
        sa.Column("rating_after", sa.Float))
    op.create_index("ix_played_seats_player", "played_seats",
                    ["player_id", "game", "public", "finished", "game_pk", "place", "left"])
    op.create_index("ix_played_seats_places", "played_seats",
                    ["player_id", "game", "public", "place", "left"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("shown", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False))
    op.create_index("ix_ratings_game_shown", "ratings", ["game", "shown"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(40)))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player_id")
    for table in ("ratings", "played_seats", "played_games", "login_failures", "sessions",
                  "players"):
        op.drop_table(table)
