"""Notifications and time-of-day deadlines: new tables only (host/notify_models.py).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _game() -> sa.Column:
    return sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                     nullable=False)


def _address() -> sa.Column:
    return sa.Column("address_id", sa.Integer,
                     sa.ForeignKey("mail_addresses.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("at", sa.String(5), nullable=False),
        sa.Column("zone", sa.String(64), nullable=False),
        sa.Column("min_hours", sa.Float, nullable=False),
        sa.Column("phases", sa.String(3), nullable=False))
    op.create_table(
        "mail_addresses",
        sa.Column("id", sa.Integer, primary_key=True), _game(),
        sa.Column("power", sa.Integer, nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("kinds", sa.JSON, nullable=False),
        sa.Column("warn_hours", sa.JSON, nullable=False),
        sa.Column("link", sa.Text, nullable=False),
        sa.Column("site", sa.String(300), nullable=False),
        sa.Column("unsubscribed", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.UniqueConstraint("game_id", "power"))
    op.create_index("ix_mail_addresses_game_id", "mail_addresses", ["game_id"])
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True), _address(),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("attach", sa.JSON, nullable=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_try", sa.DateTime, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("error", sa.Text, nullable=True))
    op.create_index("ix_mail_outbox_address_id", "mail_outbox", ["address_id"])
    op.create_index("ix_mail_outbox_next_try", "mail_outbox", ["next_try"])
    op.create_table(
        "mail_press",
        sa.Column("id", sa.Integer, primary_key=True), _address(),
        sa.Column("phase", sa.String(20), nullable=False),
        sa.Column("sender", sa.String(100), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False))
    op.create_index("ix_mail_press_address_id", "mail_press", ["address_id"])


def downgrade() -> None:
    for table in ("mail_press", "mail_outbox", "mail_addresses", "game_clocks"):
        op.drop_table(table)
