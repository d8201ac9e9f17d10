"""The Python client's tests run against a real `podium serve` and the fault proxy in front of it, both started by
clients/python/test.sh (clients/testing/podium.sh), and import `podium` as installed from the built wheel."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import podium
from podium_client.api.admin import create_api_key
from podium_client.models import CreatedApiKey, CreateKeyRequest

URL = os.environ["PODIUM_CLIENT_TEST_URL"]
PROXY = os.environ["PODIUM_CLIENT_TEST_PROXY_URL"]
ADMIN_KEY = os.environ["PODIUM_CLIENT_TEST_ADMIN_KEY"]
KID = os.environ["PODIUM_CLIENT_TEST_TOKEN_KID"]
SECRET = os.environ["PODIUM_CLIENT_TEST_TOKEN_SECRET"]
GROUP = "py-client"


def completion(completion_id: str, user: str, correct: int = 4, **extra: Any) -> dict[str, Any]:
    """A completion body, its `completed_at` fixed now: sent again, it is the same body. Its quiz is its own:
    Podium refuses a player token's same quiz again within 60 s."""
    body = {"id": completion_id, "user_id": user, "quiz_id": f"q-{completion_id}", "topic": "math",
            "difficulty": "medium", "correct": correct, "total": 5, "duration_ms": 90000, "groups": [GROUP],
            "completed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    body.update(extra)
    return body


def player_token(user: str, lifetime: int = 300, age: float = 0, group: str = GROUP) -> str:
    """A player token for `user` in `group`, signed with the test Podium's secret; `age` seconds in the past."""
    return podium.sign_player_token(KID, SECRET, user, groups=[group], lifetime=lifetime, now=time.time() - age)


def completions_of(user: str) -> int:
    """How many completions Podium counts for `user` (read with the admin key, past the proxy); 0 for a player it
    does not know."""
    with podium.Podium(URL, ADMIN_KEY) as admin:
        try:
            return admin.profile(user).totals.completions
        except podium.Refused as refused:
            if refused.status == 404:
                return 0
            raise


class Proxy:
    """The fault proxy's control: queue faults, read what it answered."""

    def __init__(self) -> None:
        self.base = PROXY
        self.seen = len(self.log())

    def add(self, *faults: dict[str, Any]) -> None:
        """Queues `faults` (fault_proxy.py's form): each answers the next request in Podium's place."""
        httpx.post(f"{PROXY}/__faults", json=list(faults)).raise_for_status()

    def log(self) -> list[dict[str, Any]]:
        """Every request the proxy saw."""
        answer: list[dict[str, Any]] = httpx.get(f"{PROXY}/__faults/log").json()
        return answer

    def answers(self, path: str = "/v1/") -> list[int]:
        """The statuses answered (0: dropped) since this test began, for requests whose path starts with `path`."""
        return [entry["answer"] for entry in self.log()[self.seen:] if entry["path"].startswith(path)]


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    """The fault proxy, its queue emptied after the test."""
    yield Proxy()
    httpx.delete(f"{PROXY}/__faults").raise_for_status()


@pytest.fixture(scope="session")
def ingest_key() -> str:
    """An ingest key, made through the generated admin API (as a quiz backend's operator would)."""
    with podium.Podium(URL, ADMIN_KEY) as admin:
        made = create_api_key.sync(client=admin.api, body=CreateKeyRequest.from_dict(
            {"name": "Python client tests", "role": "ingest"}))
    assert isinstance(made, CreatedApiKey)
    return made.secret


class Waits:
    """An injected `sleep`, and the `clock` it moves: records the waits asked for and waits none; the clock reads the
    sum of the waits asked for, so a deadline counts waits, never the time requests took."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def clock(self) -> float:
        """Seconds "passed": the waits asked for so far."""
        return sum(self.asked)

    def __call__(self, seconds: float) -> None:
        """Records the wait."""
        self.asked.append(seconds)

    async def asleep(self, seconds: float) -> None:
        """The same, awaited (for `AsyncPodium`)."""
        self.asked.append(seconds)


class TokenSupply:
    """A token supply that records each call's `refresh`; gives `first`, then `fresh` once asked to refresh."""

    def __init__(self, first: str, fresh: str) -> None:
        self.first, self.fresh = first, fresh
        self.calls: list[bool] = []

    def __call__(self, refresh: bool) -> str:
        """The token, fresh once asked to refresh."""
        self.calls.append(refresh)
        if refresh:
            self.first = self.fresh
        return self.first
