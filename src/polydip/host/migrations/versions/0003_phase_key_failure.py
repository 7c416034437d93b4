"""Games gain `phase_key` (new each time a phase is reached: requests name the phase they
were made for with it) and `failure` (why processing the game failed, for its GM).

Revision ID: 0003
Revises: 0002 (phases keep their own phase record)
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


# plain ALTER TABLE ADD/DROP COLUMN, never a batch copy of the table: on SQLite a batch
# drops and recreates `games`, and with foreign keys on that deletes every game's phases,
# powers and orders (ON DELETE CASCADE); SQLite has had DROP COLUMN since 3.35


def upgrade() -> None:
    op.add_column("games", sa.Column("phase_key", sa.String(32), nullable=False,
                                     server_default=""))
    op.add_column("games", sa.Column("failure", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "failure")
    op.drop_column("games", "phase_key")
