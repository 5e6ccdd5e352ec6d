"""Expand: outside bots (bot_tables.py): bot accounts (``players.bot``), whether a person
takes bots' challenges (``players.bot_challenges``), API tokens, bots' inboxes, the
arena's seeks, challenges.

New tables and defaulted columns only: workers of 0001 to 0004 code run on it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None
oldest_code = "0001"


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("bot_challenges", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("scopes", sa.Text, nullable=False),
        sa.Column("per_minute", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float),
        sa.Column("revoked", sa.Float))
    op.create_index("ix_api_tokens_player", "api_tokens", ["player_id"])
    op.create_table(
        "bot_events",
        sa.Column("pk", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("body", sa.Text, nullable=False))
    op.create_index("ix_bot_events_player", "bot_events", ["player_id", "pk"])
    op.create_table(
        "arena_seeks",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(64)))
    op.create_index("ix_arena_seeks_open", "arena_seeks", ["game", "table_id", "since"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("from_id", sa.String(40), nullable=False),
        sa.Column("to_id", sa.String(40), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("turn_seconds", sa.Float),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("from_seat", sa.Text))
    op.create_index("ix_challenges_to", "challenges", ["to_id", "state"])
    op.create_index("ix_challenges_from", "challenges", ["from_id", "state"])


def downgrade() -> None:
    for table in ("challenges", "arena_seeks", "bot_events", "api_tokens"):
        op.drop_table(table)
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot_challenges")
        batch.drop_column("bot")
