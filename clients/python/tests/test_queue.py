"""`OfflineQueue` against a real Podium through the fault proxy: each completion's outcome exact, none lost, none
counted twice, and `sync` never raises for what it reports."""

from __future__ import annotations

import json
import os
import pathlib
import threading
from typing import Any

import httpx
import pytest
from conftest import URL, Proxy, TokenSupply, completion, completions_of, player_token

import podium
from podium import SyncOutcome

BATCH = "/v1/completions/batch"


def left(ids: list[str], reason: str, problem_status: int | None = None,
         retry_after: float | None = None) -> list[tuple[Any, ...]]:
    """The outcomes expected for `ids` left queued for `reason`."""
    return [(item, "left", reason, problem_status, retry_after) for item in ids]


def outcomes(report: podium.SyncReport) -> list[tuple[Any, ...]]:
    """Each item as (id, outcome, reason, its problem's status, retry_after)."""
    return [(item.id, item.outcome, item.reason, item.problem.status if item.problem else None, item.retry_after)
            for item in report.items]


def test_an_offline_queue_syncs_without_loss_or_doubles(proxy: Proxy, ingest_key: str, tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    first = [completion(f"py-cy-{index}", "u-py-cy") for index in range(3)]
    for body in first:
        queue.add(body)
    queue.add(completion("py-cy-bad", "u-py-cy", correct=9))
    ids = ["py-cy-0", "py-cy-1", "py-cy-2", "py-cy-bad"]
    with podium.Podium(proxy.base, ingest_key) as backend:
        proxy.add({"drop": True, "path": BATCH})
        assert outcomes(queue.sync(backend)) == left(ids, "offline")
        assert [item["id"] for item in queue.pending()] == ids

        report = queue.sync(backend)
        assert report.recorded == ids[:3] and report.refused == ["py-cy-bad"] and report.left == []
        problem = report.items[3].problem
        assert problem is not None and [error.field for error in problem.errors] == ["completions[3].correct"]
        assert queue.pending() == []
        # The same completions queued again (a sync whose answer was lost): replays, never doubles.
        for body in first:
            queue.add(body)
        report = queue.sync(backend)
        assert report.replayed == ids[:3] and report.recorded == [] and report.left == []
        assert proxy.answers(BATCH) == [0, 200, 200] and completions_of("u-py-cy") == 3


def test_a_completion_added_while_a_sync_runs_stays_queued(ingest_key: str, proxy: Proxy,
                                                           tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    late = completion("py-late-2", "u-py-late")

    def add_late(request: httpx.Request) -> None:
        queue.add(late)

    queue.add(completion("py-late-1", "u-py-late"))
    with podium.Podium(proxy.base, ingest_key, httpx_args={"event_hooks": {"request": [add_late]}}) as backend:
        report = queue.sync(backend)
    assert outcomes(report) == [("py-late-1", "recorded", None, None, None)]
    assert [item["id"] for item in queue.pending()] == ["py-late-2"]
    with pytest.raises(ValueError, match="no user_id"):
        queue.add({"id": "py-late-shapeless", "quiz_id": "q"})  # never queued, and never a KeyError
    assert [item["id"] for item in queue.pending()] == ["py-late-2"]


def test_a_proxys_html_page_leaves_the_items_unavailable(proxy: Proxy, ingest_key: str, tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    for index in range(2):
        queue.add(completion(f"py-qh-{index}", "u-py-qh"))
    with podium.Podium(proxy.base, ingest_key) as backend:
        proxy.add({"status": 502, "path": BATCH}, {"status": 503, "path": BATCH})
        assert outcomes(queue.sync(backend)) == left(["py-qh-0", "py-qh-1"], "unavailable", 502)
        assert outcomes(queue.sync(backend)) == left(["py-qh-0", "py-qh-1"], "unavailable", 503)
        assert queue.sync(backend).recorded == ["py-qh-0", "py-qh-1"]
    assert proxy.answers(BATCH) == [502, 503, 200] and queue.pending() == [] and completions_of("u-py-qh") == 2


def test_a_rate_limit_leaves_the_items_with_retry_after(proxy: Proxy, ingest_key: str, tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    queue.add(completion("py-qr-1", "u-py-qr"))
    with podium.Podium(proxy.base, ingest_key) as backend:
        proxy.add({"status": 429, "retry_after": 7, "problem": True, "path": BATCH})
        report = queue.sync(backend)
        assert outcomes(report) == left(["py-qr-1"], "rate_limited", 429, 7.0) and report.retry_after == 7.0
        assert queue.sync(backend).recorded == ["py-qr-1"]
    assert proxy.answers(BATCH) == [429, 200] and completions_of("u-py-qr") == 1


def test_a_refused_token_leaves_the_items_for_authentication(proxy: Proxy, tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    for index in range(2):
        queue.add(completion(f"py-qa-{index}", "u-py-qa"))
    expired = player_token("u-py-qa", lifetime=60, age=3600)
    supply = TokenSupply(expired, fresh=expired)
    with podium.Podium(proxy.base, supply) as player:
        report = queue.sync(player)
    assert outcomes(report) == left(["py-qa-0", "py-qa-1"], "authentication", 401)
    assert supply.calls == [False, True] and proxy.answers(BATCH) == [401, 401]
    assert [item["id"] for item in queue.pending()] == ["py-qa-0", "py-qa-1"]
    with podium.Podium(proxy.base, TokenSupply(player_token("u-py-qa"), fresh="unused")) as player:
        assert queue.sync(player).recorded == ["py-qa-0", "py-qa-1"]
    assert completions_of("u-py-qa") == 2


def test_a_conflicting_item_is_refused_with_its_problem(ingest_key: str, tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    body = completion("py-qc-1", "u-py-qc")
    with podium.Podium(URL, ingest_key) as backend:
        backend.record(body)
        queue.add(dict(body, correct=5))
        queue.add(body)
        report = queue.sync(backend)
    conflict = report.items[0].problem
    assert report.items == (SyncOutcome("py-qc-1", "refused", conflict), SyncOutcome("py-qc-1", "replayed"))
    assert conflict is not None and conflict.status == 409 and conflict.type.endswith("/conflict")
    assert queue.pending() == [] and completions_of("u-py-qc") == 1



def test_a_batch_that_fails_leaves_it_and_the_batches_after_it(proxy: Proxy, ingest_key: str,
                                                               tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    ids = [f"py-qb-{index}" for index in range(1002)]
    for identifier in ids:
        queue.add(completion(identifier, f"u-py-qb-{int(identifier[6:]) % 7}"))

    def drop_the_next_batch(response: httpx.Response) -> None:
        if response.request.url.path == BATCH:
            proxy.add({"drop": True, "path": BATCH})

    hooks = {"event_hooks": {"response": [drop_the_next_batch]}}
    with podium.Podium(proxy.base, ingest_key, httpx_args=hooks) as backend:
        report = queue.sync(backend)
    assert report.recorded == ids[:500] and outcomes(report)[500:] == left(ids[500:], "offline")
    assert proxy.answers(BATCH) == [200, 0], "the third batch is not sent once the second met no answer"
    assert [item["id"] for item in queue.pending()] == ids[500:]


def test_an_item_podium_could_not_store_now_stays(tmp_path: pathlib.Path) -> None:
    # Podium answers 500 for one item its database refused on its own (the others stand); a real server cannot be
    # made to, so a mock transport answers in its place.
    problem = {"type": "https://podium.dev/problems/internal-error", "title": "Internal error", "status": 500,
               "detail": "the item could not be stored", "code": "internal-error"}

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"results": [{"id": "py-q500-1", "status": 201}, {"id": "py-q500-2",
                              "status": 500, "problem": problem}], "created": 1, "replayed": 0, "conflicts": 0,
                              "invalid": 0})

    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    queue.add(completion("py-q500-1", "u-py-q500"))
    queue.add(completion("py-q500-2", "u-py-q500"))
    with podium.Podium("http://podium.invalid", "key", httpx_args={"transport": httpx.MockTransport(answer)}) as mock:
        report = queue.sync(mock)
    assert outcomes(report) == [("py-q500-1", "recorded", None, None, None),
                                ("py-q500-2", "left", "unavailable", 500, None)]
    assert report.items[1].problem is not None and report.items[1].problem.detail == "the item could not be stored"
    assert [item["id"] for item in queue.pending()] == ["py-q500-2"]


def test_a_torn_line_does_not_swallow_the_next_add(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "queue.jsonl"
    queue = podium.OfflineQueue(path)
    queue.add(completion("py-torn-a", "u-py-torn"))
    with open(path, "a", encoding="utf-8") as file:
        file.write('{"id":"py-torn-b","user_')  # a crash while this line was written
    queue.add(completion("py-torn-c", "u-py-torn"))
    assert [item["id"] for item in queue.pending()] == ["py-torn-a", "py-torn-c"]


def batch_answer(request: httpx.Request) -> httpx.Response:
    """Podium's answer to a batch, each item recorded (a mock in Podium's place)."""
    items = json.loads(request.content)["completions"]
    return httpx.Response(200, json={"results": [{"id": item["id"], "status": 201} for item in items]})


def test_an_add_from_another_thread_while_sync_rewrites_the_file_is_kept(tmp_path: pathlib.Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    queue.add(completion("py-thr-1", "u-py-thr"))
    late = threading.Thread(target=queue.add, args=(completion("py-thr-2", "u-py-thr"),))
    replace = os.replace

    def replace_while_another_thread_adds(source: Any, target: Any) -> None:
        # The sync has read the queue again and written what stays; another thread adds now. It must wait for the
        # rewrite (the lock), or its completion is written to the file being replaced and lost.
        late.start()
        late.join(timeout=0.5)
        replace(source, target)

    monkeypatch.setattr(os, "replace", replace_while_another_thread_adds)
    with podium.Podium("http://podium.invalid", "key",
                       httpx_args={"transport": httpx.MockTransport(batch_answer)}) as mock:
        report = queue.sync(mock)
    monkeypatch.undo()
    late.join()
    assert report.recorded == ["py-thr-1"] and [item["id"] for item in queue.pending()] == ["py-thr-2"]


def test_answers_podium_would_not_give_leave_the_items_and_sync_never_raises(tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    queue.add(completion("py-odd-1", "u-py-odd"))
    queue.add(completion("py-odd-2", "u-py-odd"))
    both = ["py-odd-1", "py-odd-2"]
    answers: list[tuple[httpx.Response, list[tuple[Any, ...]]]] = [
        (httpx.Response(200, json={"created": 2}), left(both, "unavailable")),  # no results
        (httpx.Response(200, json={"results": None}), left(both, "unavailable")),
        (httpx.Response(200, json={"results": [None, {"id": "py-odd-2", "status": "201"}]}), left(both, "unavailable")),
        (httpx.Response(200, json=[1]), left(both, "unavailable")),
        (httpx.Response(400, json={"title": "Bad", "status": "400"}), left(both, "unavailable", 400)),  # not a problem
        (httpx.Response(400, json={"message": "bad"}), left(both, "unavailable", 400)),
        (httpx.Response(401, text="<html>401</html>"), left(both, "authentication", 401)),
    ]
    for response, expected in answers:
        with podium.Podium("http://podium.invalid", "key", httpx_args={
                "transport": httpx.MockTransport(lambda request, response=response: response)}) as mock:
            assert outcomes(queue.sync(mock)) == expected, response

    def garbled(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"},
                              content=b"not gzip")

    with podium.Podium("http://podium.invalid", "key", httpx_args={"transport": httpx.MockTransport(garbled)}) as mock:
        report = queue.sync(mock)
    assert outcomes(report) == left(both, "unavailable") and report.items[0].problem is None
    assert [item["id"] for item in queue.pending()] == both


def test_a_lost_batch_answer_leaves_the_items_then_they_are_replayed(proxy: Proxy, ingest_key: str,
                                                                     tmp_path: pathlib.Path) -> None:
    queue = podium.OfflineQueue(tmp_path / "queue.jsonl")
    ids = ["py-qlost-0", "py-qlost-1"]
    for identifier in ids:
        queue.add(completion(identifier, "u-py-qlost"))
    with podium.Podium(proxy.base, ingest_key) as backend:
        proxy.add({"lose_answer": True, "path": BATCH})  # Podium records the batch; its answer never arrives
        assert outcomes(queue.sync(backend)) == left(ids, "offline")
        assert [item["id"] for item in queue.pending()] == ids
        report = queue.sync(backend)
    assert report.replayed == ids and report.recorded == [] and queue.pending() == []
    assert proxy.answers(BATCH) == [0, 200] and completions_of("u-py-qlost") == 2
