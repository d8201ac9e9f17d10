"""Player tokens, signed by the quiz backend with a secret Podium shares (`PODIUM_PLAYER_TOKEN_HS256_KEYS`).

Standard library only: tests and tools load this file by its path, without the client's dependencies.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterable
from typing import Any


def _part(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).rstrip(b"=").decode()


def sign_player_token(key_id: str, secret: str, user_id: str, groups: Iterable[str] = (), lifetime: float = 600,
                      now: float | None = None, audience: str | None = None) -> str:
    """An HS256 JWT for `user_id` that Podium accepts as that player: `kid` names the shared secret, `groups` the
    groups the backend vouches for (so the player reads their boards), valid for `lifetime` seconds from `now` (Unix
    seconds; the current time by default). Podium refuses lifetimes longer than PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S.
    """
    issued = int(time.time() if now is None else now)
    header = {"alg": "HS256", "typ": "JWT", "kid": key_id}
    claims: dict[str, Any] = {"sub": user_id, "iat": issued, "exp": issued + int(lifetime), "groups": list(groups)}
    if audience is not None:
        claims["aud"] = audience
    signed = f"{_part(header)}.{_part(claims)}"
    signature = hmac.new(secret.encode(), signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{base64.urlsafe_b64encode(signature).rstrip(b'=').decode()}"
