"""The first schema: games, powers, phases, orders, draw votes.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("variant", sa.String(200), nullable=False),
        sa.Column("variant_text", sa.Text, nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("gm_token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("phase", sa.String(20), nullable=False),
        sa.Column("deadline", sa.DateTime, nullable=True),
        sa.Column("paused", sa.Boolean, nullable=False),
        sa.Column("paused_left", sa.Float, nullable=False),
        sa.Column("movement_minutes", sa.Float, nullable=False),
        sa.Column("retreat_minutes", sa.Float, nullable=False),
        sa.Column("adjustment_minutes", sa.Float, nullable=False),
        sa.Column("nmr_limit", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    op.create_table(
        "powers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("power", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("generation", sa.Integer, nullable=False),
        sa.Column("missed", sa.Integer, nullable=False),
        sa.Column("civil_disorder", sa.Boolean, nullable=False),
        sa.UniqueConstraint("game_id", "power"),
    )
    op.create_table(
        "phases",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("uid", sa.String(32), nullable=False, unique=True),
        sa.Column("game_json", sa.Text, nullable=False),
        sa.Column("powers_before", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_table(
        "orders",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("power", sa.Integer, nullable=False),
        sa.Column("lines", sa.JSON, nullable=False),
        sa.Column("ready", sa.Boolean, nullable=False),
        sa.Column("updated", sa.DateTime, nullable=False),
        sa.UniqueConstraint("game_id", "seq", "power"),
    )
    op.create_table(
        "draw_votes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("power", sa.Integer, nullable=False),
        sa.Column("vote", sa.Boolean, nullable=False),
        sa.UniqueConstraint("game_id", "power"),
    )


def downgrade() -> None:
    for table in ("draw_votes", "orders", "phases", "powers", "games"):
        op.drop_table(table)
