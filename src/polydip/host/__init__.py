"""polydip's game host: `polydip serve` (FastAPI, SQLAlchemy, Alembic; the `host` extra).

`create_app(db_url, data_dir)` gives the ASGI app; polydip.host.service.Host is what it does
with games, polydip.host.views what each link may see.
"""
