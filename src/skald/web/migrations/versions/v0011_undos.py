"""Steps taken back: each game's count of them (a commit checks it with the version) and each one, for the log."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add games.undos and the undos table."""
    op.add_column("games", sa.Column("undos", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "undos",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("steps", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("undos")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("undos")
