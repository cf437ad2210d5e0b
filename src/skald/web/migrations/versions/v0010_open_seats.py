"""Open tables and absent players: a seat open to anyone until someone takes it, when the table started, and a seat
the table's rule gave to a bot when its clock ran out (until its player comes back, with the time he is given)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add seats.is_open, seats.away_ply, seats.coming_back and seats.credit, and games.started_at."""
    op.add_column("seats", sa.Column("is_open", sa.Boolean, nullable=True))
    op.add_column("seats", sa.Column("away_ply", sa.Integer, nullable=True))
    op.add_column("seats", sa.Column("coming_back", sa.Boolean, nullable=True))
    op.add_column("seats", sa.Column("credit", sa.Float, nullable=True))
    op.add_column("games", sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("credit")
        batch.drop_column("coming_back")
        batch.drop_column("away_ply")
        batch.drop_column("is_open")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("started_at")
