"""The server's schema as Alembic revisions (``versions/``), run by
:mod:`usotsuki.server.migrate` (``usotsuki db upgrade``).

A new revision: copy the latest file in ``versions/``, give it the next number as
``revision`` and the latest as ``down_revision``, write ``upgrade`` and ``downgrade``
with ``op`` (batch mode on SQLite: ``op.batch_alter_table``), and set ``oldest_code``:
the oldest code (named by its head revision) that still runs on a database at the new
revision. An *expand* revision (new tables, nullable columns, indexes) keeps its
predecessor's ``oldest_code``: workers of the release before run on it during a rolling
upgrade. A *contract* revision (dropping or tightening what older code uses) names a
revision whose code no longer uses it, and ships a release after that code.
(``alembic -c ... revision -m "..."`` renders ``script.py.mako`` too.)
"""
