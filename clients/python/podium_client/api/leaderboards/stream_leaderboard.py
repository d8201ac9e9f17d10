from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard_window import LeaderboardWindow
from ...models.problem import Problem
from ...models.stream_leaderboard_response_200 import StreamLeaderboardResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    board: str,
    window: LeaderboardWindow,
    *,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    offset: int | Unset = 0,
    around: str | Unset = UNSET,
    radius: int | Unset = 5,
    last_event_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    params: dict[str, Any] = {}

    params["period"] = period

    params["limit"] = limit

    params["offset"] = offset

    params["around"] = around

    params["radius"] = radius

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/leaderboards/{board}/{window}/live".format(
            board=quote(str(board), safe=""),
            window=quote(str(window), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | StreamLeaderboardResponse200 | None:
    if response.status_code == 200:
        response_200 = StreamLeaderboardResponse200.from_dict(response.text)

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | StreamLeaderboardResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    offset: int | Unset = 0,
    around: str | Unset = UNSET,
    radius: int | Unset = 5,
    last_event_id: str | Unset = UNSET,
) -> Response[Problem | StreamLeaderboardResponse200]:
    """A page, pushed whenever it changes (Server-Sent Events)

     The same page as `GET /v1/leaderboards/{board}/{window}` (same `limit`, `offset`, `around`,
    `radius`, `period`, credentials and scopes; no CSV), as a `text/event-stream` that stays open.
    Events: `page` (data: the page's JSON; id: its ETag), sent first and again whenever the page
    changes, read at most about four times a second on change notices from any replica and every 5 s
    regardless; `status` (data: `{"live": false}` while change notices do not arrive, e.g. Redis is
    down, so the client should fall back to polling; `{"live": true}` once they do again); comments as
    heartbeats; `ended` (data: `{"reason": "revoked"}` or `{"reason": "expired"}`), sent last when the
    stream's key is revoked on any replica or passes its `expires_at`, or its player token passes its
    `exp`, within 5 s of the replica learning of it (at most 10 s after a revocation on another
    replica), after which the stream closes and reconnecting with that credential is 401. A client
    reconnecting with `Last-Event-ID` set to the last page's id gets no page until it changes. Role:
    `read` (no key needed when leaderboards are configured public).

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        offset (int | Unset):  Default: 0.
        around (str | Unset):
        radius (int | Unset):  Default: 5.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamLeaderboardResponse200]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
        offset=offset,
        around=around,
        radius=radius,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    offset: int | Unset = 0,
    around: str | Unset = UNSET,
    radius: int | Unset = 5,
    last_event_id: str | Unset = UNSET,
) -> Problem | StreamLeaderboardResponse200 | None:
    """A page, pushed whenever it changes (Server-Sent Events)

     The same page as `GET /v1/leaderboards/{board}/{window}` (same `limit`, `offset`, `around`,
    `radius`, `period`, credentials and scopes; no CSV), as a `text/event-stream` that stays open.
    Events: `page` (data: the page's JSON; id: its ETag), sent first and again whenever the page
    changes, read at most about four times a second on change notices from any replica and every 5 s
    regardless; `status` (data: `{"live": false}` while change notices do not arrive, e.g. Redis is
    down, so the client should fall back to polling; `{"live": true}` once they do again); comments as
    heartbeats; `ended` (data: `{"reason": "revoked"}` or `{"reason": "expired"}`), sent last when the
    stream's key is revoked on any replica or passes its `expires_at`, or its player token passes its
    `exp`, within 5 s of the replica learning of it (at most 10 s after a revocation on another
    replica), after which the stream closes and reconnecting with that credential is 401. A client
    reconnecting with `Last-Event-ID` set to the last page's id gets no page until it changes. Role:
    `read` (no key needed when leaderboards are configured public).

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        offset (int | Unset):  Default: 0.
        around (str | Unset):
        radius (int | Unset):  Default: 5.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamLeaderboardResponse200
    """

    return sync_detailed(
        board=board,
        window=window,
        client=client,
        period=period,
        limit=limit,
        offset=offset,
        around=around,
        radius=radius,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    offset: int | Unset = 0,
    around: str | Unset = UNSET,
    radius: int | Unset = 5,
    last_event_id: str | Unset = UNSET,
) -> Response[Problem | StreamLeaderboardResponse200]:
    """A page, pushed whenever it changes (Server-Sent Events)

     The same page as `GET /v1/leaderboards/{board}/{window}` (same `limit`, `offset`, `around`,
    `radius`, `period`, credentials and scopes; no CSV), as a `text/event-stream` that stays open.
    Events: `page` (data: the page's JSON; id: its ETag), sent first and again whenever the page
    changes, read at most about four times a second on change notices from any replica and every 5 s
    regardless; `status` (data: `{"live": false}` while change notices do not arrive, e.g. Redis is
    down, so the client should fall back to polling; `{"live": true}` once they do again); comments as
    heartbeats; `ended` (data: `{"reason": "revoked"}` or `{"reason": "expired"}`), sent last when the
    stream's key is revoked on any replica or passes its `expires_at`, or its player token passes its
    `exp`, within 5 s of the replica learning of it (at most 10 s after a revocation on another
    replica), after which the stream closes and reconnecting with that credential is 401. A client
    reconnecting with `Last-Event-ID` set to the last page's id gets no page until it changes. Role:
    `read` (no key needed when leaderboards are configured public).

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        offset (int | Unset):  Default: 0.
        around (str | Unset):
        radius (int | Unset):  Default: 5.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamLeaderboardResponse200]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
        offset=offset,
        around=around,
        radius=radius,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    offset: int | Unset = 0,
    around: str | Unset = UNSET,
    radius: int | Unset = 5,
    last_event_id: str | Unset = UNSET,
) -> Problem | StreamLeaderboardResponse200 | None:
    """A page, pushed whenever it changes (Server-Sent Events)

     The same page as `GET /v1/leaderboards/{board}/{window}` (same `limit`, `offset`, `around`,
    `radius`, `period`, credentials and scopes; no CSV), as a `text/event-stream` that stays open.
    Events: `page` (data: the page's JSON; id: its ETag), sent first and again whenever the page
    changes, read at most about four times a second on change notices from any replica and every 5 s
    regardless; `status` (data: `{"live": false}` while change notices do not arrive, e.g. Redis is
    down, so the client should fall back to polling; `{"live": true}` once they do again); comments as
    heartbeats; `ended` (data: `{"reason": "revoked"}` or `{"reason": "expired"}`), sent last when the
    stream's key is revoked on any replica or passes its `expires_at`, or its player token passes its
    `exp`, within 5 s of the replica learning of it (at most 10 s after a revocation on another
    replica), after which the stream closes and reconnecting with that credential is 401. A client
    reconnecting with `Last-Event-ID` set to the last page's id gets no page until it changes. Role:
    `read` (no key needed when leaderboards are configured public).

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        offset (int | Unset):  Default: 0.
        around (str | Unset):
        radius (int | Unset):  Default: 5.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamLeaderboardResponse200
    """

    return (
        await asyncio_detailed(
            board=board,
            window=window,
            client=client,
            period=period,
            limit=limit,
            offset=offset,
            around=around,
            radius=radius,
            last_event_id=last_event_id,
        )
    ).parsed
