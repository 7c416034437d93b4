"""The host's routes, one router a module: `games.py` (variants, creating a game),
`players.py` (a power's link), `gm.py` (the GM's link), `pages.py` (the HTML pages). The
state they share (database, Host, budget, templates, the map cache) is one `HostContext`
(context.py) that `create_app` keeps in `app.state.ctx`; a route asks for it as a parameter
(`ctx: Ctx`), never through a closure. `maps.py` reads and draws the board both API
routers serve; `schemas.py` holds the API's request and answer bodies."""
