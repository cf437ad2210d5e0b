"""Accounts, their signed-in sessions, and the seats an account has claimed."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the accounts and account_sessions tables and `seats.account_id` (null: claimed by nobody)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(24), nullable=True))
        batch.create_foreign_key("fk_seats_account", "accounts", ["account_id"], ["id"], ondelete="SET NULL")
        batch.create_index("ix_seats_account_id", ["account_id"])


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_constraint("fk_seats_account", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
