"""Games that end off the board: each seat's resignation (its order and the ply it came at) and an agreed end."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add seats.resigned and seats.resigned_ply, and games.agreed."""
    op.add_column("seats", sa.Column("resigned", sa.Integer, nullable=True))
    op.add_column("seats", sa.Column("resigned_ply", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("agreed", sa.Boolean, nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("resigned_ply")
        batch.drop_column("resigned")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("agreed")
