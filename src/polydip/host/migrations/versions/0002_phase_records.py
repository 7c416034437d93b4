"""Phase rows keep their own phase, not the whole game again.

Up to 0001 a phase row's `game_json` held the whole game file as the phase began (435 KB a
row at 200 phases, the game's history written again in every row). From 0002 its `record`
holds the position the phase began with, what the phase before it did, the rule options and
the game's status (polydip/host/records.py); the game is its rows put back together.

The conversion works on the JSON alone, one row at a time (no game is loaded, so it runs
whatever the variants installed): row k's record is cut from row k's game file; the
downgrade writes each row's game file again from records 0..k.

Revision ID: 0002
Revises: 0001
"""

import itertools
import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_HEADER = ("format", "version", "name", "variant")


def _phases(*columns: str) -> sa.TableClause:
    return sa.table("phases", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                    sa.column("seq", sa.Integer), *(sa.column(c, sa.Text) for c in columns))


def record_of(data: dict, seq: int) -> dict:
    """Row `seq`'s record, cut from its game file (the shape host/records.py writes)."""
    rec: dict = {"position": data["current"]["position"], "options": data.get("options") or {}}
    if seq == 0:
        rec["game"] = {k: data[k] for k in _HEADER if k in data}
    else:
        before = dict(data["history"][-1])
        before.pop("position", None)
        rec["before"] = before
    status, winners = data.get("status", "active"), data.get("winners") or []
    if status != "active" or winners:
        rec["status"], rec["winners"] = status, winners
    return rec


def file_of(records: list[dict]) -> dict:
    """The game file as the last of `records` began (rows 0..k in order)."""
    first, last = records[0], records[-1]
    history = [{"position": rec["position"], **nxt["before"]}
               for rec, nxt in itertools.pairwise(records)]
    return {**first["game"], "options": last["options"],
            "status": last.get("status", "active"), "winners": last.get("winners", []),
            "history": history, "current": {"position": last["position"], "orders": {}}}


def upgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("record", sa.Text, nullable=True))
    conn = op.get_bind()
    t = _phases("game_json", "record")
    ids = conn.execute(sa.select(t.c.id, t.c.seq).order_by(t.c.game_id, t.c.seq)).all()
    for row_id, seq in ids:  # one row in memory at a time: old rows are large
        text = conn.execute(sa.select(t.c.game_json).where(t.c.id == row_id)).scalar_one()
        rec = record_of(json.loads(text), seq)
        conn.execute(t.update().where(t.c.id == row_id).values(record=json.dumps(rec)))
    with op.batch_alter_table("phases") as batch:
        batch.alter_column("record", existing_type=sa.Text, nullable=False)
        batch.drop_column("game_json")


def downgrade() -> None:
    with op.batch_alter_table("phases") as batch:
        batch.add_column(sa.Column("game_json", sa.Text, nullable=True))
    conn = op.get_bind()
    t = _phases("game_json", "record")
    games = conn.execute(sa.select(t.c.game_id).distinct()).scalars().all()
    for gid in games:
        records: list[dict] = []
        for row_id, text in conn.execute(sa.select(t.c.id, t.c.record)
                                         .where(t.c.game_id == gid).order_by(t.c.seq)).all():
            records.append(json.loads(text))
            conn.execute(t.update().where(t.c.id == row_id)
                         .values(game_json=json.dumps(file_of(records))))
    with op.batch_alter_table("phases") as batch:
        batch.alter_column("game_json", existing_type=sa.Text, nullable=False)
        batch.drop_column("record")
