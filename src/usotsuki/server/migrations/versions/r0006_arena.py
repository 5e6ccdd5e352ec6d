"""Expand: an arena game is marked as one (``played_games.arena``): its ratings are the
arena's pool (``arena:<game>``), and the arena's leaderboard counts its games; the arena's
tables in play (``arena_tables``, bot_tables.py), counted against its cap.

A new table and a defaulted column only: workers of 0001 to 0005 code run on it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None
oldest_code = "0001"


def upgrade() -> None:
    with op.batch_alter_table("played_games") as batch:
        batch.add_column(sa.Column("arena", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "arena_tables",
        sa.Column("table_pk", sa.Integer, primary_key=True),
        sa.Column("public_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float))
    op.create_index("ix_arena_tables_open", "arena_tables", ["finished", "created"])


def downgrade() -> None:
    op.drop_table("arena_tables")
    with op.batch_alter_table("played_games") as batch:
        batch.drop_column("arena")
