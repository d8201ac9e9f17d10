"""The error model through a proxy in front of Podium: its HTML error pages, a rate limit, a refused token, an
offline period; each answer's outcome exact, and a completion never counted twice."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

import httpx
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
    waits = Waits()  # the deadline counts the waits asked for (an injected clock), never wall time
    proxy.add({"status": 503, "path": "/v1/completions", "times": 100})
    with podium.Podium(proxy.base, ingest_key, deadline=2.0, backoff=0.2, sleep=waits, clock=waits.clock) as backend:
        with pytest.raises(podium.Unavailable) as unavailable:
            backend.record(completion("py-html-2", "u-py-html2"))
    # Attempts at 0, 0.2, 0.6 and 1.4 s; the next would start at 3.0 s, past the deadline.
    assert waits.asked == [0.2, 0.4, 0.8] and proxy.answers() == [503] * 4
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


def test_a_gateways_401_page_is_authentication_after_one_refresh(proxy: Proxy) -> None:
    # A gateway's own 401 (an HTML page, not Podium's problem) still means the credential was refused: one refresh,
    # then AuthenticationFailed, never retried as "unavailable".
    proxy.add({"status": 401, "path": "/v1/completions", "times": 2})
    supply = TokenSupply(player_token("u-py-gw401"), fresh=player_token("u-py-gw401"))
    waits = Waits()
    with podium.Podium(proxy.base, supply, sleep=waits, clock=waits.clock) as player:
        with pytest.raises(podium.AuthenticationFailed) as refused:
            player.record(completion("py-gw401-1", "u-py-gw401"))
    assert supply.calls == [False, True] and proxy.answers() == [401, 401] and waits.asked == []
    problem = refused.value.problem
    assert (problem.status, problem.type, problem.raw) == (401, "about:blank", {})
    assert completions_of("u-py-gw401") == 0


Answer = Callable[[], httpx.Response]


def mock(answer_with: Answer, seen: list[httpx.Request] | None = None) -> dict[str, Any]:
    """`httpx_args` for a client whose every request is answered by a response `answer_with` makes (in Podium's
    place: answers no real server or proxy gives); the requests are appended to `seen`."""

    def answer(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        return answer_with()

    return {"transport": httpx.MockTransport(answer)}


def test_json_that_is_not_a_problem_is_unavailable_and_a_401_is_authentication_whatever_it_says() -> None:
    problem = {"type": "https://podium.dev/problems/not-found", "title": "Not found", "status": 404, "detail": "no"}
    cases: list[tuple[int, dict[str, Any], type[podium.PodiumError]]] = [
        (400, {"json": {"error": "bad gateway config"}}, podium.Unavailable),
        (422, {"json": dict(problem, status="422")}, podium.Unavailable),  # status not an integer
        (404, {"json": dict(problem, title=7)}, podium.Unavailable),  # title not a string
        (403, {"json": [1, 2]}, podium.Unavailable),
        (404, {"json": problem}, podium.Refused),
        (401, {"json": {"message": "Unauthorized"}}, podium.AuthenticationFailed),
        (401, {"text": "denied"}, podium.AuthenticationFailed),
        (401, {}, podium.AuthenticationFailed),
    ]
    for status, content, expected in cases:
        waits = Waits()
        with podium.Podium("http://podium.invalid", "key", deadline=1.0, sleep=waits, clock=waits.clock,
                           httpx_args=mock(lambda: httpx.Response(status, **content))) as client:
            with pytest.raises(podium.PodiumError) as raised:
                client.profile("u-1")
        assert type(raised.value) is expected, (status, content, raised.value)
        assert raised.value.status == status
        assert waits.asked == ([0.5] if expected is podium.Unavailable else [])


def test_an_answer_that_cannot_be_read_is_unavailable_never_another_exception() -> None:
    def garbled() -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"},
                              content=b"not gzip")

    def not_a_completion() -> httpx.Response:
        return httpx.Response(201, json={"ok": True})

    for answer in (garbled, not_a_completion):
        waits = Waits()
        with podium.Podium("http://podium.invalid", "key", deadline=1.0, sleep=waits, clock=waits.clock,
                           httpx_args=mock(answer)) as client:
            with pytest.raises(podium.Unavailable) as unavailable:
                client.record(completion("py-garbled-1", "u-py-garbled"))
        assert unavailable.value.reason == "unavailable" and unavailable.value.completion is not None


def test_every_attempt_sends_the_same_body_stamped_once() -> None:
    seen: list[httpx.Request] = []
    waits = Waits()
    body = completion("py-stamp-1", "u-py-stamp")
    del body["completed_at"]
    with podium.Podium("http://podium.invalid", "key", sleep=waits, clock=waits.clock,
                       httpx_args=mock(lambda: httpx.Response(503, text="<html>503</html>"), seen=seen)) as client:
        with pytest.raises(podium.Unavailable) as unavailable:
            client.record(body)
    # Attempts at 0, 0.5, 1.5, 3.5 and 7.5 s of the 15 s deadline, each the same bytes, stamped before the first.
    assert waits.asked == [0.5, 1.0, 2.0, 4.0] and len(seen) == 5
    assert len({request.content for request in seen}) == 1
    sent = json.loads(seen[0].content)
    assert sent["completed_at"].endswith("Z") and unavailable.value.completion == sent
    assert "completed_at" not in body, "the caller's dict is left as it was"


def test_completed_at_strings_are_sent_as_rfc_3339_instants() -> None:
    seen: list[httpx.Request] = []
    waits = Waits()
    with podium.Podium("http://podium.invalid", "key", deadline=0.1, sleep=waits, clock=waits.clock,
                       httpx_args=mock(lambda: httpx.Response(503, text="<html>503</html>"), seen=seen)) as client:
        with pytest.raises(podium.Unavailable):
            client.record(completion("py-iso-1", "u-py-iso", completed_at="2026-03-01T10:20:30.5+01:00"))
        with pytest.raises(podium.InvalidCompletion, match="has no offset"):
            client.record(completion("py-iso-2", "u-py-iso", completed_at="2026-03-01T10:20:30"))
    assert json.loads(seen[0].content)["completed_at"] == "2026-03-01T09:20:30.500Z" and len(seen) == 1


def test_a_lost_answer_is_retried_and_counts_once(proxy: Proxy, ingest_key: str) -> None:
    waits = Waits()
    proxy.add({"lose_answer": True, "path": "/v1/completions"})  # Podium records it; the answer never arrives
    with podium.Podium(proxy.base, ingest_key, sleep=waits, clock=waits.clock) as backend:
        answer = backend.record(completion("py-lost-1", "u-py-lost"))
    assert answer.completion.id == "py-lost-1" and proxy.answers() == [0, 200] and waits.asked == [0.5]
    assert completions_of("u-py-lost") == 1


def test_a_completion_unavailable_after_a_lost_answer_is_queued_as_sent_and_replayed(
        proxy: Proxy, ingest_key: str, tmp_path: pathlib.Path) -> None:
    waits = Waits()
    body = completion("py-lostq-1", "u-py-lostq")
    del body["completed_at"]  # stamped by `record`: the queue must send the same time, or it is a conflict
    proxy.add({"lose_answer": True, "path": "/v1/completions"}, {"status": 503, "path": "/v1/completions", "times": 100})
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    with podium.Podium(proxy.base, ingest_key, deadline=1.0, sleep=waits, clock=waits.clock) as backend:
        with pytest.raises(podium.Unavailable) as unavailable:
            backend.record(body)
        assert proxy.answers() == [0, 503] and waits.asked == [0.5]
        assert unavailable.value.completion is not None
        queue.add(unavailable.value.completion)
        httpx.delete(f"{proxy.base}/__faults").raise_for_status()
        report = queue.sync(backend)
    assert report.replayed == ["py-lostq-1"] and queue.pending() == [] and completions_of("u-py-lostq") == 1
