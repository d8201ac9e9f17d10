"""Podium's Python client.

- `Podium` (and `AsyncPodium`): `record`, `profile`, `leaderboard`, `around` in the API's words, with a token supply
  refreshed once after a 401 and retries that never count a completion twice; `api` is the generated client
  (`podium_client`) for every other route.
- `OfflineQueue`: completions kept in a file while Podium cannot take them; `sync` reports each one.
- Errors: `PodiumError` and its `Refused`, `AuthenticationFailed` and `Unavailable`, each with its `Problem`.
- `sign_player_token`: the HS256 token a quiz backend signs for its player.
"""

from ._version import __version__
from .client import AsyncPodium, AsyncTokenSupply, Podium, TokenSupply
from .completions import InvalidCompletion
from .errors import AuthenticationFailed, FieldError, PodiumError, Problem, Refused, Unavailable
from .offline_queue import OfflineQueue, SyncOutcome, SyncReport
from .tokens import sign_player_token

__all__ = [
    "AsyncPodium", "AsyncTokenSupply", "AuthenticationFailed", "FieldError", "InvalidCompletion", "OfflineQueue",
    "Podium", "PodiumError", "Problem", "Refused", "SyncOutcome", "SyncReport", "TokenSupply", "Unavailable",
    "__version__", "sign_player_token",
]
