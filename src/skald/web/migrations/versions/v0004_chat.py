"""The table chat: messages kept beside each game, and whether its spectators may take part."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the chat_messages table and the games' chat_spectators flag (null for the games made before, read as
    false: their spectators take no part)."""
    op.create_table(
        "chat_messages",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("games", sa.Column("chat_spectators", sa.Boolean, nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("chat_spectators")
    op.drop_table("chat_messages")
