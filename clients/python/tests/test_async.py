"""`AsyncPodium` and `OfflineQueue.sync_async`: the same error model, awaited."""

from __future__ import annotations

import asyncio
import pathlib

import pytest
from conftest import GROUP, Proxy, Waits, completion, completions_of, player_token

import podium


class AsyncTokenSupply:
    """A coroutine token supply: an expired token, then (asked to refresh) a fresh one; records each `refresh`."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.token = player_token(user, lifetime=60, age=3600)
        self.calls: list[bool] = []

    async def __call__(self, refresh: bool) -> str:
        """The token, fresh once asked to refresh."""
        self.calls.append(refresh)
        if refresh:
            self.token = player_token(self.user)
        return self.token


def test_async_records_after_a_401_and_an_html_page(proxy: Proxy) -> None:
    waits = Waits()
    supply = AsyncTokenSupply("u-py-async")

    async def scenario() -> None:
        async with podium.AsyncPodium(proxy.base, supply, sleep=waits.asleep) as player:
            proxy.add({"status": 502, "path": "/v1/completions"})
            answer = await player.record(completion("py-async-1", "u-py-async"))
            assert answer.completion.id == "py-async-1"
            page = await player.leaderboard(f"group:{GROUP}", "week", limit=50)
            assert "u-py-async" in [entry.user_id for entry in page.entries]
            with pytest.raises(podium.Refused) as forbidden:
                await player.profile("u-py-not-me")
            assert forbidden.value.status == 403

    asyncio.run(scenario())
    # The first attempt met the proxy's page; the second a 401 (the expired token), refreshed once, then recorded.
    assert proxy.answers("/v1/completions") == [502, 401, 201] and waits.asked == [0.5]
    assert supply.calls == [False, False, True, False, False] and completions_of("u-py-async") == 1


def test_async_unavailable_after_the_deadline(proxy: Proxy, ingest_key: str) -> None:
    waits = Waits()  # attempts at 0 and 0.4 s; the next would start at 1.2 s, past the deadline
    proxy.add({"drop": True, "path": "/v1/completions", "times": 100})

    async def scenario() -> podium.Unavailable:
        async with podium.AsyncPodium(proxy.base, ingest_key, deadline=1.0, backoff=0.4, sleep=waits.asleep,
                                      clock=waits.clock) as backend:
            with pytest.raises(podium.Unavailable) as offline:
                await backend.record(completion("py-async-2", "u-py-async2"))
            return offline.value

    error = asyncio.run(scenario())
    assert (error.reason, error.status) == ("offline", None) and proxy.answers() == [0, 0] and waits.asked == [0.4]
    assert error.completion is not None and error.completion["id"] == "py-async-2"


def test_async_queue_sync(proxy: Proxy, ingest_key: str, tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    queue.add(completion("py-async-q1", "u-py-asyncq"))

    async def scenario() -> tuple[podium.SyncReport, podium.SyncReport]:
        async with podium.AsyncPodium(proxy.base, ingest_key) as backend:
            proxy.add({"drop": True, "path": "/v1/completions/batch"})
            return await queue.sync_async(backend), await queue.sync_async(backend)

    offline, back = asyncio.run(scenario())
    assert [(item.id, item.outcome, item.reason) for item in offline.items] == [("py-async-q1", "left", "offline")]
    assert back.recorded == ["py-async-q1"] and queue.pending() == [] and completions_of("u-py-asyncq") == 1
