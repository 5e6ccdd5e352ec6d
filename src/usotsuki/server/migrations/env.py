"""Alembic's environment: the runner (:mod:`usotsuki.server.migrate`) passes the
connection, already in a transaction and holding the migration lock."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations with `usotsuki db upgrade` (it takes the lock)")
context.configure(connection=connection,
                  # SQLite alters a table by copying it: Alembic's batch mode does that
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():  # (the runner's transaction: one for every revision)
    context.run_migrations()
