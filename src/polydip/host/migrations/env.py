"""Alembic environment of the host's database: run by polydip.host.db.migrate with an open
connection (never from an alembic.ini)."""

from alembic import context

from polydip.host.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
