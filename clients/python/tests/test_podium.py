"""`Podium` against a real Podium: player tokens, records retried without doubles, reads in the API's words, and the
generated API beside them (scenarios of the former Tests/browser/test_client_python.py)."""

from __future__ import annotations

import datetime

import pytest
from conftest import ADMIN_KEY, GROUP, URL, Proxy, Waits, completion, completions_of, player_token

import podium
from podium_client.api.admin import create_api_key
from podium_client.models import CreatedApiKey, CreateKeyRequest


def test_a_backend_signs_a_player_token_and_the_player_posts_and_reads_its_board() -> None:
    with podium.Podium(URL, player_token("u-py-ada", group="py-ada-class")) as player:
        answer = player.record(completion("py-ada-1", "u-py-ada", groups=["py-ada-class"]))
        assert answer.completion.id == "py-ada-1" and answer.points_awarded == 3
        assert player.profile("u-py-ada").totals.points == 3
        page = player.leaderboard("group:py-ada-class", "week", limit=5)
        assert [(entry.rank, entry.user_id, entry.score) for entry in page.entries] == [(1, "u-py-ada", 3)]
        around = player.around("group:py-ada-class", "week", "u-py-ada")
        assert [entry.user_id for entry in around.entries] == ["u-py-ada"]
        with pytest.raises(podium.Refused) as forbidden:
            player.profile("u-py-someone")  # another player's profile is not this token's to read
    assert forbidden.value.status == 403 and str(forbidden.value).startswith("403 ")


def test_a_retry_after_an_outage_records_the_completion_once(proxy: Proxy, ingest_key: str) -> None:
    waits = Waits()
    body = completion("py-bo-1", "u-py-bo")  # one body, sent again as it was
    proxy.add({"drop": True, "path": "/v1/completions"})
    with podium.Podium(proxy.base, ingest_key, sleep=waits) as backend:
        assert backend.record(body).completion.id == "py-bo-1"
        assert waits.asked == [0.5] and proxy.answers() == [0, 201]
        # The answer to a first attempt was lost, say: the retry is answered as the same completion, counted once.
        assert backend.record(body).completion.id == "py-bo-1"
        assert proxy.answers() == [0, 201, 200] and completions_of("u-py-bo") == 1
        with pytest.raises(podium.Refused) as conflict:
            backend.record(dict(body, correct=5))
        assert conflict.value.status == 409, "the same id with another body is a conflict, never a second completion"
        problem = conflict.value.problem
        assert problem.type.endswith("/conflict")
        assert str(conflict.value) == f"409 {problem.title}: {problem.detail} ({problem.type})"
        with pytest.raises(podium.Refused) as invalid:
            backend.record(completion("py-bo-2", "u-py-bo", correct=9))
        assert invalid.value.status == 400 and [error.field for error in invalid.value.problem.errors] == ["correct"]
    assert waits.asked == [0.5] and completions_of("u-py-bo") == 1


def test_a_completion_is_checked_before_it_is_sent(proxy: Proxy, ingest_key: str) -> None:
    with podium.Podium(proxy.base, ingest_key) as backend:
        shapeless = {"id": "py-chk-0", "quiz_id": "q"}
        with pytest.raises(podium.InvalidCompletion, match="no user_id"):
            backend.record(shapeless)
        with pytest.raises(ValueError, match="unknown field 'userId'"):
            backend.record(dict(completion("py-chk-1", "u-py-chk"), userId="u"))
        with pytest.raises(ValueError, match="completed_at: a datetime needs a time zone"):
            backend.record(completion("py-chk-2", "u-py-chk", completed_at=datetime.datetime.now()))
        with pytest.raises(ValueError, match="correct: '4' is not of type int"):
            backend.record(dict(completion("py-chk-3", "u-py-chk"), correct="4"))
    assert proxy.answers() == []


def test_completed_at_may_be_a_datetime_or_an_iso_string(ingest_key: str) -> None:
    played = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=250000) - datetime.timedelta(hours=1)
    with podium.Podium(URL, ingest_key) as backend:
        as_datetime = backend.record(completion("py-at-1", "u-py-at", completed_at=played))
        as_string = backend.record(completion("py-at-2", "u-py-at", completed_at=played.isoformat()))
    assert as_datetime.completion.completed_at == played and as_string.completion.completed_at == played


def test_a_model_prints_the_fields_that_are_set(ingest_key: str) -> None:
    with podium.Podium(URL, ingest_key) as backend:
        answer = backend.record(completion("py-print-1", "u-py-print", display_name=None))
    printed = repr(answer)
    assert printed.startswith("CompletionResponse(completion=CompletionRecord(id='py-print-1', user_id='u-py-print'")
    assert "Unset" not in printed and "display_name" not in printed


def test_the_generated_admin_api_makes_a_display_key_with_its_link() -> None:
    with podium.Podium(URL, ADMIN_KEY) as admin:
        made = create_api_key.sync(client=admin.api, body=CreateKeyRequest.from_dict(
            {"name": "Python-made TV", "role": "display", "scopes": [f"group:{GROUP}"]}))
    assert isinstance(made, CreatedApiKey)
    assert made.display_url == f"{URL}/display/group:{GROUP}/week#key={made.secret}"
    with podium.Podium(URL, made.secret) as display:
        assert display.leaderboard(f"group:{GROUP}", "week").board == f"group:{GROUP}"


def test_the_version_is_the_servers() -> None:
    with podium.Podium(URL, ADMIN_KEY) as admin:
        metrics = admin.http.get("/metrics").text
    assert f'version="{podium.__version__}"' in metrics.split("podium_build_info{", 1)[1].split("}", 1)[0]
