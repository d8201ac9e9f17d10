"""Player tokens, signed by the quiz backend with a secret Podium shares (`PODIUM_PLAYER_TOKEN_HS256_KEYS`)."""

import base64
import hashlib
import hmac
import json
import time


def _part(data):
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).rstrip(b"=").decode()


def sign_player_token(key_id, secret, user_id, groups=(), lifetime=600, now=None, audience=None):
    """An HS256 JWT for `user_id` that Podium accepts as that player: `kid` names the shared secret, `groups` the
    groups the backend vouches for (so the player reads their boards), valid for `lifetime` seconds from `now` (Unix
    seconds; the current time by default). Podium refuses lifetimes longer than PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S.
    """
    issued = int(time.time() if now is None else now)
    header = {"alg": "HS256", "typ": "JWT", "kid": key_id}
    claims = {"sub": user_id, "iat": issued, "exp": issued + int(lifetime), "groups": list(groups)}
    if audience is not None:
        claims["aud"] = audience
    signed = f"{_part(header)}.{_part(claims)}"
    signature = hmac.new(secret.encode(), signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{base64.urlsafe_b64encode(signature).rstrip(b'=').decode()}"
