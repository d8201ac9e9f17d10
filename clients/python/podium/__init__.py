"""Podium for Python quiz backends: the generated client (`podium_client`) and what generation cannot give.

- `sign_player_token`: the HS256 player token a quiz backend signs for its player (docs/ACCESS.md).
- `connect`: an `AuthenticatedClient` for a base URL and a key or token.
- `send_completion`: records one completion, retrying with the same id after a network error, a 429 or a 5xx, so a
  retry is answered as a replay (200) and never counts twice.
- `OfflineQueue`: completions kept in a file while Podium cannot be reached, synced through the batch route.
"""

from .completions import CompletionRefused, CompletionUnavailable, OfflineQueue, SyncReport, send_completion
from .tokens import sign_player_token
from podium_client import AuthenticatedClient


def connect(base_url, token, timeout=10.0):
    """A client of the Podium at `base_url` that sends `token` (an API key or a player token) as its bearer."""
    return AuthenticatedClient(base_url=base_url.rstrip("/"), token=token, timeout=timeout, raise_on_unexpected_status=False)


__all__ = ["AuthenticatedClient", "CompletionRefused", "CompletionUnavailable", "OfflineQueue", "SyncReport", "connect", "send_completion", "sign_player_token"]
