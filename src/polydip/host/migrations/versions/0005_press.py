"""Press: the messages powers send each other, each game's press settings (chosen at
creation), and the names players give for their powers.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("phase", sa.String(20), nullable=False),
        sa.Column("sender", sa.Integer, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("recipients", sa.JSON, nullable=False),
        sa.Column("time", sa.BigInteger, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    op.create_index("ix_messages_game_id", "messages", ["game_id"])
    op.create_table(
        "press_settings",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("rule", sa.String(20), nullable=False),
        sa.Column("anonymous", sa.Boolean, nullable=False),
        sa.Column("gm_reads", sa.Boolean, nullable=False),
    )
    op.create_table(
        "player_names",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("power", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.UniqueConstraint("game_id", "power"),
    )
    op.create_index("ix_player_names_game_id", "player_names", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_player_names_game_id", "player_names")
    op.drop_table("player_names")
    op.drop_table("press_settings")
    op.drop_index("ix_messages_game_id", "messages")
    op.drop_table("messages")
