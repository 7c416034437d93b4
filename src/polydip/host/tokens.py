"""Links: unguessable tokens, stored only as their SHA-256.

A power's token is derived from the GM's (an HMAC of the game, the power and how often its
player was replaced), so the GM's page can show every power's link again without the
database ever holding one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def power_token(gm_token: str, game_id: int, power: int, generation: int) -> str:
    mac = hmac.new(gm_token.encode(), f"{game_id}:{power}:{generation}".encode(), "sha256")
    return "p" + mac.hexdigest()[:40]
