"""The baseline: tables, seats, the log and leases, as the server made them before Alembic.

A database made by that code (its ``schema_version`` at 1 or 2, with or without
``leases``) is adopted as it is: what exists is kept, what is missing is made (v2's
columns and index, the leases and their token index), so every older database arrives
here without losing a row. The definitions are frozen copies: later revisions change
the schema, never this file.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None
oldest_code = "0001"

LEGACY_VERSION = 2  # ``schema_version`` of the last code before Alembic


def _tables() -> None:
    op.create_table(
        "tables",
        sa.Column("pk", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("public_id", sa.String(64), nullable=False, unique=True),
        sa.Column("invite", sa.String(64), nullable=False, unique=True),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("creator", sa.String(64)),
        sa.Column("active", sa.Float))


def _seats() -> None:
    op.create_table(
        "seats",
        sa.Column("table_pk", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("bot", sa.String(32)))


def _log() -> None:
    op.create_table(
        "log",
        sa.Column("table_pk", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False))


def _leases() -> None:
    op.create_table(
        "leases",
        sa.Column("table_pk", sa.Integer, primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.Float, nullable=False))


def _legacy_version(conn: sa.Connection, have: set[str]) -> int | None:
    if "schema_version" not in have:
        return None
    version = conn.execute(sa.text("SELECT max(version) FROM schema_version")).scalar()
    if version is not None and version > LEGACY_VERSION:
        raise RuntimeError(f"schema_version {version} is newer than any code before "
                           f"Alembic ({LEGACY_VERSION}): not a usotsuki database")
    return None if version is None else int(version)


def upgrade() -> None:
    conn = op.get_bind()
    inspector = sa.inspect(conn)
    have = set(inspector.get_table_names())
    version = _legacy_version(conn, have)
    for name, make in (("tables", _tables), ("seats", _seats), ("log", _log),
                       ("leases", _leases)):
        if name not in have:
            make()
    if "tables" in have:  # v1 lacks who created each table and when it was last used
        columns = {c["name"] for c in inspector.get_columns("tables")}
        with op.batch_alter_table("tables") as batch:
            if "creator" not in columns:
                batch.add_column(sa.Column("creator", sa.String(64)))
            if "active" not in columns:
                batch.add_column(sa.Column("active", sa.Float))
        op.execute("UPDATE tables SET active = created WHERE active IS NULL")
    indexes = {name: {i["name"] for i in inspector.get_indexes(name)}
               for name in ("tables", "leases") if name in have}
    if "ix_tables_creator" not in indexes.get("tables", set()):
        op.create_index("ix_tables_creator", "tables", ["creator", "active"])
    # The unique index makes the token a key column for PostgreSQL's row locks (lease.py)
    if "leases_token" not in indexes.get("leases", set()):
        op.create_index("leases_token", "leases", ["table_pk", "token"], unique=True)
    # Kept at 2 so that workers of the code before Alembic (which migrate by it) find
    # nothing to do and run on this schema during the rolling upgrade.
    if "schema_version" not in have:
        op.create_table("schema_version", sa.Column("version", sa.Integer, nullable=False))
    if version != LEGACY_VERSION:
        op.execute("DELETE FROM schema_version")
        op.execute(f"INSERT INTO schema_version (version) VALUES ({LEGACY_VERSION})")
    # The oldest code that runs on the database (migrate.py writes it at each upgrade).
    op.create_table("schema_compat", sa.Column("oldest_code", sa.String(32), nullable=False))


def downgrade() -> None:
    raise RuntimeError("the baseline is not downgraded: it holds every table's rows")
