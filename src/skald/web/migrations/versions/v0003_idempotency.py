"""Idempotency keys of game creations: a repeat of a creation whose answer was lost gets the same game."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the idempotency_keys table (keys are forgotten after 24 hours; indexed by age to forget them)."""
    op.create_table(
        "idempotency_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_idempotency_keys_created_at", "idempotency_keys", ["created_at"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_idempotency_keys_created_at", "idempotency_keys")
    op.drop_table("idempotency_keys")
