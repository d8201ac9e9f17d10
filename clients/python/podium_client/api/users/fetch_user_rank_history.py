from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard_window import LeaderboardWindow
from ...models.problem import Problem
from ...models.rank_history import RankHistory
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    board: str | Unset = UNSET,
    window: LeaderboardWindow | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["board"] = board

    json_window: str | Unset = UNSET
    if not isinstance(window, Unset):
        json_window = window

    params["window"] = json_window

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/users/{id}/rank-history".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RankHistory | None:
    if response.status_code == 200:
        response_200 = RankHistory.from_dict(response.json())

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
) -> Response[Problem | RankHistory]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    board: str | Unset = UNSET,
    window: LeaderboardWindow | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[Problem | RankHistory]:
    """A player's rank over time

     The player's rank, score and the board size in every snapshot that lists the player, newest first,
    on all boards or only `board` and `window`. Scheduled snapshots hold only a board's top entries, so
    they show a player only while in that top; a final snapshot lists every player of the closed period.
    Role: `read`. A player token reads only its own player; a scoped key only players with a score on
    its boards (404 for others), and only its boards' ranks, medals and rank history.

    Args:
        id (str):
        board (str | Unset):
        window (LeaderboardWindow | Unset): Time window of a board: `all` never ends; `day`,
            `week` (ISO, from Monday) and `month` are cut in the board's time zone; `contest` is the
            one window of a contest's board, whose periods are the contest's runs.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RankHistory]
    """

    kwargs = _get_kwargs(
        id=id,
        board=board,
        window=window,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    board: str | Unset = UNSET,
    window: LeaderboardWindow | Unset = UNSET,
    limit: int | Unset = 100,
) -> Problem | RankHistory | None:
    """A player's rank over time

     The player's rank, score and the board size in every snapshot that lists the player, newest first,
    on all boards or only `board` and `window`. Scheduled snapshots hold only a board's top entries, so
    they show a player only while in that top; a final snapshot lists every player of the closed period.
    Role: `read`. A player token reads only its own player; a scoped key only players with a score on
    its boards (404 for others), and only its boards' ranks, medals and rank history.

    Args:
        id (str):
        board (str | Unset):
        window (LeaderboardWindow | Unset): Time window of a board: `all` never ends; `day`,
            `week` (ISO, from Monday) and `month` are cut in the board's time zone; `contest` is the
            one window of a contest's board, whose periods are the contest's runs.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RankHistory
    """

    return sync_detailed(
        id=id,
        client=client,
        board=board,
        window=window,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    board: str | Unset = UNSET,
    window: LeaderboardWindow | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[Problem | RankHistory]:
    """A player's rank over time

     The player's rank, score and the board size in every snapshot that lists the player, newest first,
    on all boards or only `board` and `window`. Scheduled snapshots hold only a board's top entries, so
    they show a player only while in that top; a final snapshot lists every player of the closed period.
    Role: `read`. A player token reads only its own player; a scoped key only players with a score on
    its boards (404 for others), and only its boards' ranks, medals and rank history.

    Args:
        id (str):
        board (str | Unset):
        window (LeaderboardWindow | Unset): Time window of a board: `all` never ends; `day`,
            `week` (ISO, from Monday) and `month` are cut in the board's time zone; `contest` is the
            one window of a contest's board, whose periods are the contest's runs.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RankHistory]
    """

    kwargs = _get_kwargs(
        id=id,
        board=board,
        window=window,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    board: str | Unset = UNSET,
    window: LeaderboardWindow | Unset = UNSET,
    limit: int | Unset = 100,
) -> Problem | RankHistory | None:
    """A player's rank over time

     The player's rank, score and the board size in every snapshot that lists the player, newest first,
    on all boards or only `board` and `window`. Scheduled snapshots hold only a board's top entries, so
    they show a player only while in that top; a final snapshot lists every player of the closed period.
    Role: `read`. A player token reads only its own player; a scoped key only players with a score on
    its boards (404 for others), and only its boards' ranks, medals and rank history.

    Args:
        id (str):
        board (str | Unset):
        window (LeaderboardWindow | Unset): Time window of a board: `all` never ends; `day`,
            `week` (ISO, from Monday) and `month` are cut in the board's time zone; `contest` is the
            one window of a contest's board, whose periods are the contest's runs.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RankHistory
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            board=board,
            window=window,
            limit=limit,
        )
    ).parsed
