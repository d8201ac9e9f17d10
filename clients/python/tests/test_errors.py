"""The error model through a proxy in front of Podium: its HTML error pages, a rate limit, a refused token, an
offline period; each answer's outcome exact, and a completion never counted twice."""

from __future__ import annotations

import time

import pytest
from conftest import Proxy, TokenSupply, Waits, completion, completions_of, player_token

import podium


def test_html_pages_from_a_proxy_are_retried_with_the_same_body(proxy: Proxy, ingest_key: str) -> None:
    waits = Waits()
    proxy.add({"status": 502, "path": "/v1/completions"}, {"status": 503, "path": "/v1/completions"})
    with podium.Podium(proxy.base, ingest_key, sleep=waits) as backend:
        answer = backend.record(completion("py-html-1", "u-py-html"))
    assert answer.completion.id == "py-html-1"
    assert proxy.answers() == [502, 503, 201] and waits.asked == [0.5, 1.0]
    assert completions_of("u-py-html") == 1


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_each_html_error_page_is_retried(proxy: Proxy, ingest_key: str, status: int) -> None:
    waits = Waits()
    proxy.add({"status": status, "path": "/v1/completions"})
    with podium.Podium(proxy.base, ingest_key, sleep=waits) as backend:
        assert backend.record(completion(f"py-page-{status}", "u-py-page")).completion.id == f"py-page-{status}"
    assert proxy.answers() == [status, 201] and waits.asked == [0.5]


def test_html_pages_until_the_deadline_raise_unavailable(proxy: Proxy, ingest_key: str) -> None:
    proxy.add({"status": 503, "path": "/v1/completions", "times": 100})
    started = time.monotonic()
    with podium.Podium(proxy.base, ingest_key, deadline=2.0, backoff=0.2) as backend:
        with pytest.raises(podium.Unavailable) as unavailable:
            backend.record(completion("py-html-2", "u-py-html2"))
    # Attempts at 0, 0.2, 0.6 and 1.4 s; the next would start at 3.0 s, past the deadline.
    assert time.monotonic() - started < 2.0 and proxy.answers() == [503] * 4
    error = unavailable.value
    assert (error.reason, error.status, error.retry_after) == ("unavailable", 503, None)
    assert error.problem is not None and error.problem.type == "about:blank"
    assert str(error) == "503 Service Unavailable: an HTML page from a proxy, not Podium's answer"
    assert completions_of("u-py-html2") == 0


def test_a_rate_limit_waits_what_retry_after_says(proxy: Proxy, ingest_key: str) -> None:
    waits = Waits()
    proxy.add({"status": 429, "retry_after": 2, "problem": True, "path": "/v1/completions"})
    with podium.Podium(proxy.base, ingest_key, sleep=waits) as backend:
        assert backend.record(completion("py-rate-1", "u-py-rate")).completion.id == "py-rate-1"
        assert waits.asked == [2.0] and proxy.answers() == [429, 201]
        # A wait past the deadline is not waited: the caller hears at once when to come back.
        proxy.add({"status": 429, "retry_after": 30, "path": "/v1/completions"})
        with pytest.raises(podium.Unavailable) as limited:
            backend.record(completion("py-rate-2", "u-py-rate"))
    assert (limited.value.reason, limited.value.status, limited.value.retry_after) == ("rate_limited", 429, 30.0)
    assert waits.asked == [2.0] and proxy.answers() == [429, 201, 429]


def test_an_expired_token_is_refreshed_once_then_refused_as_authentication(proxy: Proxy) -> None:
    expired = player_token("u-py-auth", lifetime=60, age=3600)
    supply = TokenSupply(expired, fresh=expired)  # the backend, asked again, has no better token
    with podium.Podium(proxy.base, supply) as player:
        with pytest.raises(podium.AuthenticationFailed) as refused:
            player.record(completion("py-auth-1", "u-py-auth"))
    assert supply.calls == [False, True] and proxy.answers() == [401, 401]
    error = refused.value
    assert error.status == 401 and error.problem.title in str(error) and error.problem.detail in str(error)
    assert not isinstance(error, podium.Unavailable), "a refused credential is never reported as offline"


def test_a_fresh_token_after_a_401_records_the_completion(proxy: Proxy) -> None:
    supply = TokenSupply(player_token("u-py-fresh", lifetime=60, age=3600), fresh=player_token("u-py-fresh"))
    with podium.Podium(proxy.base, supply) as player:
        assert player.record(completion("py-fresh-1", "u-py-fresh")).completion.id == "py-fresh-1"
        assert player.profile("u-py-fresh").totals.completions == 1
    assert supply.calls == [False, True, False] and proxy.answers() == [401, 201, 200]


def test_a_refused_api_key_is_not_refreshed(proxy: Proxy) -> None:
    with podium.Podium(proxy.base, "pdm_" + "x" * 40) as backend:
        with pytest.raises(podium.AuthenticationFailed) as refused:
            backend.record(completion("py-key-1", "u-py-key"))
    assert refused.value.status == 401 and proxy.answers() == [401]


def test_an_offline_period_is_retried_and_then_reported_offline(proxy: Proxy, ingest_key: str) -> None:
    waits = Waits()
    proxy.add({"drop": True, "path": "/v1/completions", "times": 3})
    body = completion("py-off-1", "u-py-off")
    with podium.Podium(proxy.base, ingest_key, sleep=waits) as backend:
        assert backend.record(body).completion.id == "py-off-1"
        assert proxy.answers() == [0, 0, 0, 201] and waits.asked == [0.5, 1.0, 2.0]
        with podium.Podium("http://127.0.0.1:9", ingest_key, deadline=1.0, backoff=0.3) as nowhere:
            with pytest.raises(podium.Unavailable) as offline:
                nowhere.record(body)
        assert (offline.value.reason, offline.value.problem, offline.value.status) == ("offline", None, None)
        assert str(offline.value).startswith("Podium could not be reached: ")
        assert backend.record(body).completion.id == "py-off-1"  # sent again once back: a replay
    assert proxy.answers() == [0, 0, 0, 201, 200] and completions_of("u-py-off") == 1
