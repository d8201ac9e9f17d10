"""The Python client (clients/python) against a real `podium serve`: the generated `podium_client` and the
hand-written `podium` layer (player tokens, retries with the same id, the offline queue through the batch route).

Runs in the browser suite's session (conftest.py: its Podium, database and player-token secret) without a browser.
"""

import sys
import time

import httpx
import pytest

from conftest import ROOT, TcpProxy, http_json

sys.path.insert(0, str(ROOT / "clients" / "python"))
import podium as sdk  # noqa: E402  (the client's folder is on the path from here on; `podium` is the fixture)
from podium_client.api.admin import create_api_key  # noqa: E402
from podium_client.api.leaderboards import fetch_leaderboard_page  # noqa: E402
from podium_client.api.users import fetch_user_profile  # noqa: E402
from podium_client.models import CreateKeyRequest, LeaderboardPage, UserProfile  # noqa: E402

GROUP = "py-client"


def secret_of(podium_fixture):
    """The HS256 key id and secret the session's Podium accepts (conftest.py's token maker holds them)."""
    kid, secret = podium_fixture["token"].args
    return kid, secret


def completion(completion_id, user, correct=4, **extra):
    body = {"id": completion_id, "user_id": user, "quiz_id": "q-python", "topic": "math", "difficulty": "medium",
            "correct": correct, "total": 5, "duration_ms": 90000, "groups": [GROUP],
            "completed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    body.update(extra)
    return body


def profile(client, user):
    response = fetch_user_profile.sync_detailed(user, client=client)
    assert response.status_code == 200, response.content
    assert isinstance(response.parsed, UserProfile)
    return response.parsed


def test_a_backend_signs_a_player_token_and_the_player_posts_and_reads_its_board(podium):
    kid, secret = secret_of(podium)
    token = sdk.sign_player_token(kid, secret, "u-py-ada", groups=[GROUP], lifetime=300)
    client = sdk.connect(podium["base"], token)
    answer = sdk.send_completion(client, completion("py-ada-1", "u-py-ada"))
    assert answer.completion.id == "py-ada-1" and answer.points_awarded == 3
    assert profile(client, "u-py-ada").totals.points == 3
    page = fetch_leaderboard_page.sync_detailed(f"group:{GROUP}", "week", client=client, limit=5)
    assert page.status_code == 200 and isinstance(page.parsed, LeaderboardPage)
    assert [entry.user_id for entry in page.parsed.entries] == ["u-py-ada"]
    # Another player's profile is not this token's to read.
    assert fetch_user_profile.sync_detailed("u-py-someone", client=client).status_code == 403
    expired = sdk.sign_player_token(kid, secret, "u-py-ada", groups=[GROUP], lifetime=60, now=time.time() - 3600)
    assert fetch_user_profile.sync_detailed("u-py-ada", client=sdk.connect(podium["base"], expired)).status_code == 401


def test_a_retry_after_an_outage_records_the_completion_once(podium):
    host, port = podium["base"].removeprefix("http://").split(":")
    proxy = TcpProxy((host, int(port)))  # not started: Podium cannot be reached
    client = sdk.connect(proxy.base, podium["admin_key"], timeout=30)
    waits = []

    def wait(seconds):
        waits.append(seconds)
        proxy.start()  # Podium is back before the next attempt

    # One body, sent again as it was: a body made again a second later would carry another completed_at.
    body = completion("py-bo-1", "u-py-bo")
    try:
        answer = sdk.send_completion(client, body, sleep=wait)
        assert answer.completion.id == "py-bo-1" and waits == [0.5]
        # The answer to a first attempt was lost, say: the retry is answered as the same completion, counted once.
        again = sdk.send_completion(client, body)
        assert again.completion.id == "py-bo-1"
        assert profile(client, "u-py-bo").totals.completions == 1
        with pytest.raises(sdk.CompletionRefused) as refused:
            sdk.send_completion(client, dict(body, correct=5))
        assert refused.value.status == 409, "the same id with another body is a conflict, never a second completion"
        with pytest.raises(sdk.CompletionRefused) as invalid:
            sdk.send_completion(client, completion("py-bo-2", "u-py-bo", correct=9))
        assert invalid.value.status == 400 and invalid.value.problem["errors"][0]["field"] == "correct"
    finally:
        proxy.stop()
    with pytest.raises(httpx.TransportError):
        sdk.send_completion(client, completion("py-bo-3", "u-py-bo"), attempts=2, sleep=lambda seconds: None)


def test_an_offline_queue_syncs_through_the_batch_route_without_loss_or_doubles(podium, tmp_path):
    host, port = podium["base"].removeprefix("http://").split(":")
    proxy = TcpProxy((host, int(port)))
    client = sdk.connect(proxy.base, podium["admin_key"], timeout=30)
    queue = sdk.OfflineQueue(str(tmp_path / "queue.jsonl"))
    # Kept to be queued again as they were: made again a second later, they would carry another completed_at.
    first = [completion(f"py-cy-{index}", "u-py-cy") for index in range(3)]
    for body in first:
        queue.add(body)
    queue.add(completion("py-cy-bad", "u-py-cy", correct=9))
    report = queue.sync(client)  # offline
    assert (report.recorded, report.left) == ([], 4) and len(queue.pending()) == 4
    proxy.start()
    try:
        report = queue.sync(client)
        assert report.recorded == ["py-cy-0", "py-cy-1", "py-cy-2"] and report.left == 0 and queue.pending() == []
        assert [(item_id, status) for item_id, status, _ in report.refused] == [("py-cy-bad", 400)]
        # The same completions queued again (a sync whose answer was lost): replays, never doubles.
        for body in first:
            queue.add(body)
        report = queue.sync(client)
        assert report.replayed == ["py-cy-0", "py-cy-1", "py-cy-2"] and report.recorded == []
        assert profile(client, "u-py-cy").totals.completions == 3

        # A completion added while a sync's batch is on its way stays queued for the next sync.
        late = completion("py-cy-late", "u-py-cy")
        adding = sdk.AuthenticatedClient(base_url=proxy.base, token=podium["admin_key"], raise_on_unexpected_status=False,
                                         httpx_args={"event_hooks": {"request": [lambda request: queue.add(late)]}})
        queue.add(completion("py-cy-3", "u-py-cy"))
        report = queue.sync(adding)
        assert report.recorded == ["py-cy-3"] and report.left == 1 and [item["id"] for item in queue.pending()] == ["py-cy-late"]
        with pytest.raises(KeyError):
            queue.add({"id": "py-cy-shapeless", "quiz_id": "q"})  # no user_id: never queued
        assert [item["id"] for item in queue.pending()] == ["py-cy-late"]
    finally:
        proxy.stop()


def test_the_generated_admin_api_makes_a_display_key_with_its_link(podium):
    client = sdk.connect(podium["base"], podium["admin_key"])
    made = create_api_key.sync_detailed(client=client, body=CreateKeyRequest.from_dict(
        {"name": "Python-made TV", "role": "display", "scopes": [f"group:{GROUP}"]}))
    assert made.status_code == 201, made.content
    assert made.parsed.display_url == f"{podium['base']}/display/group:{GROUP}/week#key={made.parsed.secret}"
    status, _ = http_json("GET", f"{podium['base']}/v1/leaderboards/group:{GROUP}/week", made.parsed.secret)
    assert status == 200
