"""Live pages: a counter per game of the events its open pages follow that no other table
shows (host/live.py, `notify`: a message arrived, ...).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_versions",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False))


def downgrade() -> None:
    op.drop_table("live_versions")
