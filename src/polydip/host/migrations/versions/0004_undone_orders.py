"""Games gain `undone`: the pending orders of the phases an undo stepped back over, pending
again when processing reaches that phase (they were deleted before).

Revision ID: 0004
Revises: 0003 (games keep a phase key and the failure of their last processing)
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


# plain ALTER TABLE ADD/DROP COLUMN (see 0003: never a batch copy of `games`)


def upgrade() -> None:
    op.add_column("games", sa.Column("undone", sa.JSON, nullable=False, server_default="[]"))


def downgrade() -> None:
    op.drop_column("games", "undone")
