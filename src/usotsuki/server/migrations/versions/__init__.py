"""The revisions, oldest first by number (Alembic reads them by path)."""
