"""Bot seats: the powers a GM gave to a bot player (host/bots.py), one row a seat.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_seats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("power", sa.Integer, nullable=False),
        sa.Column("player", sa.String(20), nullable=False),
        sa.Column("since", sa.DateTime, nullable=False),
        sa.UniqueConstraint("game_id", "power"),
    )
    op.create_index("ix_bot_seats_game_id", "bot_seats", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_seats_game_id", table_name="bot_seats")
    op.drop_table("bot_seats")
