"""Alembic migrations of the web table's schema."""
