"""The server's secret (for chance seeds and rematch tokens) and which games draw from it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the secrets table and `games.secret_seed` (null, as for every game made before: its seed as stored)."""
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.add_column("games", sa.Column("secret_seed", sa.Boolean, nullable=True))
    op.create_index("ix_games_status_updated", "games", ["status", "updated_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_games_status_updated", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("secret_seed")
    op.drop_table("server_secrets")
