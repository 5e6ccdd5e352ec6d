"""Expand: the public lobby's listings, the quick-match queue, chat, reports, mutes and
sanctions, the puzzles' ratings (meet_tables.py).

New tables only: workers of 0001 to 0003 code run on it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None
oldest_code = "0001"


def upgrade() -> None:
    op.create_table(
        "table_listings",
        sa.Column("table_pk", sa.Integer, primary_key=True),
        sa.Column("public_id", sa.String(64), nullable=False, unique=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("seated", sa.Integer, nullable=False),
        sa.Column("people", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("turn_seconds", sa.Float),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating_low", sa.Float),
        sa.Column("rating_high", sa.Float),
        sa.Column("spectators", sa.Integer, nullable=False),
        sa.Column("host", sa.String(64)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False))
    op.create_index("ix_table_listings_open", "table_listings",
                    ["visibility", "status", "updated"])
    op.create_table(
        "match_seekers",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("bots", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("seat_token", sa.Text))
    op.create_index("ix_match_seekers_open", "match_seekers", ["game", "table_id", "since"])
    op.create_table(
        "chat_messages",
        sa.Column("pk", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_pk", sa.Integer, nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("player_id", sa.String(40)),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False))
    op.create_index("ix_chat_messages_table", "chat_messages", ["table_pk", "pk"])
    op.create_table(
        "chat_reports",
        sa.Column("pk", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_pk", sa.Integer, nullable=False),
        sa.Column("reporter_id", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("handled", sa.Float))
    op.create_index("ix_chat_reports_open", "chat_reports", ["handled", "at"])
    op.create_table(
        "player_mutes",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("muted_id", sa.String(40), primary_key=True),
        sa.Column("at", sa.Float, nullable=False))
    op.create_table(
        "sanctions",
        sa.Column("pk", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reason", sa.Text),
        sa.Column("by", sa.String(64)),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("until", sa.Float),
        sa.Column("lifted", sa.Float))
    op.create_index("ix_sanctions_player", "sanctions", ["player_id", "kind"])
    op.create_table(
        "puzzle_players",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False))
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False))


def downgrade() -> None:
    for table in ("puzzle_ratings", "puzzle_players", "sanctions",
                  "player_mutes", "chat_reports", "chat_messages",
                  "match_seekers", "table_listings"):
        op.drop_table(table)
