"""The schema as the server made it before Alembic (``schema_version`` 1 or 2, leases
made by the cluster's workers), frozen here: the migrations must adopt such a database
with everything in it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
)

V2_COLUMNS = ("pk", "public_id", "invite", "host_hash", "game", "config", "created",
              "creator", "active")


def legacy_metadata(version: int, leases: bool) -> MetaData:
    metadata = MetaData()
    Table("schema_version", metadata, Column("version", Integer, nullable=False))
    columns = [Column("pk", Integer, primary_key=True, autoincrement=True),
               Column("public_id", String(64), nullable=False, unique=True),
               Column("invite", String(64), nullable=False, unique=True),
               Column("host_hash", String(64), nullable=False),
               Column("game", String(16), nullable=False),
               Column("config", Text, nullable=False),
               Column("created", Float, nullable=False)]
    if version >= 2:
        columns += [Column("creator", String(64)), Column("active", Float)]
    tables = Table("tables", metadata, *columns)
    if version >= 2:
        Index("ix_tables_creator", tables.c.creator, tables.c.active)
    Table("seats", metadata,
          Column("table_pk", Integer, primary_key=True),
          Column("seat", Integer, primary_key=True),
          Column("name", String(64)),
          Column("token_hash", String(64)),
          Column("bot", String(32)))
    Table("log", metadata,
          Column("table_pk", Integer, primary_key=True),
          Column("seq", Integer, primary_key=True),
          Column("kind", String(16), nullable=False),
          Column("data", Text, nullable=False))
    if leases:
        table = Table("leases", metadata,
                      Column("table_pk", Integer, primary_key=True),
                      Column("owner", String(64), nullable=False),
                      Column("token", BigInteger, nullable=False),
                      Column("expires", Float, nullable=False))
        Index("leases_token", table.c.table_pk, table.c.token, unique=True)
    return metadata


def make_legacy(engine: Engine, version: int = 2, leases: bool = True,
                rows: dict[str, list[dict[str, Any]]] | None = None) -> MetaData:
    """A database as that code left it, holding ``rows`` (table name -> rows; those of a
    table it lacks are left out)."""
    metadata = legacy_metadata(version, leases)
    with engine.begin() as conn:
        metadata.create_all(conn)
        conn.execute(insert(metadata.tables["schema_version"]).values(version=version))
        for name, some in (rows or {}).items():
            if some and name in metadata.tables:
                table = metadata.tables[name]
                conn.execute(insert(table), [{k: v for k, v in r.items() if k in table.c}
                                             for r in some])
    return metadata


def dump(engine: Engine, metadata: MetaData) -> dict[str, list[dict[str, Any]]]:
    """Every row of ``metadata``'s tables (their columns only), in key order."""
    out = {}
    with engine.connect() as conn:
        for name, table in metadata.tables.items():
            if name == "schema_version":
                continue
            keys = list(table.primary_key.columns)
            out[name] = [dict(r._mapping) for r in
                         conn.execute(select(*table.c).order_by(*keys)).all()]
    return out
