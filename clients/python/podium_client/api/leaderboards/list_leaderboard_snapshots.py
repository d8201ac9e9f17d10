from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard_window import LeaderboardWindow
from ...models.problem import Problem
from ...models.snapshot_list import SnapshotList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    board: str,
    window: LeaderboardWindow,
    *,
    period: str | Unset = UNSET,
    limit: int | Unset = 24,
    top: int | Unset = 10,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["period"] = period

    params["limit"] = limit

    params["top"] = top

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/leaderboards/{board}/{window}/snapshots".format(
            board=quote(str(board), safe=""),
            window=quote(str(window), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | SnapshotList | None:
    if response.status_code == 200:
        response_200 = SnapshotList.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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
) -> Response[Any | Problem | SnapshotList]:
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
    limit: int | Unset = 24,
    top: int | Unset = 10,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem | SnapshotList]:
    """Snapshots of a board period

     Snapshots of the current period (or `period`), newest first. While the period is open the `snapshot-
    leaderboards` job takes `scheduled` snapshots of its top entries; closing the period takes the
    `final` snapshot of the whole board, with medals. Each snapshot lists its best `top` entries and the
    number of players on the board at that time. A period with no snapshot yet answers an empty list.
    Role: `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-
    None-Match` with the current one gets 304. Scoped keys read their boards; player tokens global,
    topic and quiz boards and their own groups' boards; display keys cannot.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 24.
        top (int | Unset):  Default: 10.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | SnapshotList]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
        top=top,
        if_none_match=if_none_match,
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
    limit: int | Unset = 24,
    top: int | Unset = 10,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | SnapshotList | None:
    """Snapshots of a board period

     Snapshots of the current period (or `period`), newest first. While the period is open the `snapshot-
    leaderboards` job takes `scheduled` snapshots of its top entries; closing the period takes the
    `final` snapshot of the whole board, with medals. Each snapshot lists its best `top` entries and the
    number of players on the board at that time. A period with no snapshot yet answers an empty list.
    Role: `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-
    None-Match` with the current one gets 304. Scoped keys read their boards; player tokens global,
    topic and quiz boards and their own groups' boards; display keys cannot.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 24.
        top (int | Unset):  Default: 10.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | SnapshotList
    """

    return sync_detailed(
        board=board,
        window=window,
        client=client,
        period=period,
        limit=limit,
        top=top,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    limit: int | Unset = 24,
    top: int | Unset = 10,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem | SnapshotList]:
    """Snapshots of a board period

     Snapshots of the current period (or `period`), newest first. While the period is open the `snapshot-
    leaderboards` job takes `scheduled` snapshots of its top entries; closing the period takes the
    `final` snapshot of the whole board, with medals. Each snapshot lists its best `top` entries and the
    number of players on the board at that time. A period with no snapshot yet answers an empty list.
    Role: `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-
    None-Match` with the current one gets 304. Scoped keys read their boards; player tokens global,
    topic and quiz boards and their own groups' boards; display keys cannot.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 24.
        top (int | Unset):  Default: 10.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | SnapshotList]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
        top=top,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    limit: int | Unset = 24,
    top: int | Unset = 10,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | SnapshotList | None:
    """Snapshots of a board period

     Snapshots of the current period (or `period`), newest first. While the period is open the `snapshot-
    leaderboards` job takes `scheduled` snapshots of its top entries; closing the period takes the
    `final` snapshot of the whole board, with medals. Each snapshot lists its best `top` entries and the
    number of players on the board at that time. A period with no snapshot yet answers an empty list.
    Role: `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-
    None-Match` with the current one gets 304. Scoped keys read their boards; player tokens global,
    topic and quiz boards and their own groups' boards; display keys cannot.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 24.
        top (int | Unset):  Default: 10.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | SnapshotList
    """

    return (
        await asyncio_detailed(
            board=board,
            window=window,
            client=client,
            period=period,
            limit=limit,
            top=top,
            if_none_match=if_none_match,
        )
    ).parsed
