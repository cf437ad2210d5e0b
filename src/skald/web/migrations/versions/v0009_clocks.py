"""Time controls: each game's clock setting (none, live or turn-based)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add games.clock."""
    op.add_column("games", sa.Column("clock", sa.JSON, nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock")
