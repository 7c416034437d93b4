"""Games gain `phase_key` (new each time a phase is reached: requests name the phase they
were made for with it) and `failure` (why processing the game failed, for its GM).

Revision ID: 0003
Revises: 0001 on this branch; 0002 (phases.record, branch h-storage) once both are merged
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
# "0001" on branch h-service; "0002" (0002_phase_records.py) once merged with h-storage:
# its changes are to the phases table, these to games, so either order upgrades the same
down_revision = "0001"
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
