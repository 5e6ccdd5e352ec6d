"""Expand: the archive of compacted tables (retention.py).

A table expired for longer than the retention keeps each game's record in
``archived_games`` and loses its log, lease and seat tokens; ``tables.archived`` says
when. Only a new table and a nullable column: workers of 0001's code run on it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None
oldest_code = "0001"


def upgrade() -> None:
    op.create_table(
        "archived_games",
        sa.Column("table_pk", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("record", sa.Text))  # the Part 4 record (JSON) as Table.record served it
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("archived", sa.Float))


def downgrade() -> None:
    archived = op.get_bind().execute(
        sa.text("SELECT count(*) FROM tables WHERE archived IS NOT NULL")).scalar()
    if archived:
        raise RuntimeError(f"{archived} tables are archived: their logs are gone and their "
                           "records live only in archived_games; a downgrade would lose them")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("archived")
    op.drop_table("archived_games")
