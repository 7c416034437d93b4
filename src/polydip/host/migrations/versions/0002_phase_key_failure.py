"""Games gain `phase_key` (new each time a phase is reached: requests name the phase they
were made for with it) and `failure` (why processing the game failed, for its GM).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("phase_key", sa.String(32), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("failure", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("failure")
        batch.drop_column("phase_key")
