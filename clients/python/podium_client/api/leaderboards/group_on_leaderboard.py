from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard_page import LeaderboardPage
from ...models.leaderboard_window import LeaderboardWindow
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    board: str,
    window: LeaderboardWindow,
    *,
    period: str | Unset = UNSET,
    group: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["period"] = period

    params["group"] = group

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/leaderboards/{board}/{window}/members".format(
            board=quote(str(board), safe=""),
            window=quote(str(window), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | LeaderboardPage | Problem | None:
    if response.status_code == 200:
        response_200 = LeaderboardPage.from_dict(response.json())

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
) -> Response[Any | LeaderboardPage | Problem]:
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
    group: str,
) -> Response[Any | LeaderboardPage | Problem]:
    """Rank one group's players

     The players of one group (those with a score on the group's own board, `group:<group>`) with their
    real ranks on the current period (or `period`) of a board: a class's best on a quiz
    (`quiz:<quiz_id>`), or its players on the global board. Players without a score there are left out.
    A group of more than 1,000 players is refused (400 on `group`): read its own board. Role: `read`
    (open to everyone when public leaderboards are on), and the caller must read both this board and the
    group's board (a player token only its own groups; a scoped key needs both patterns, such as
    `quiz:*` and `group:class-4b`). The answer carries an `ETag`; the same request with `If-None-Match`
    naming it gets 304 while nothing changed.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | LeaderboardPage | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        group=group,
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
    group: str,
) -> Any | LeaderboardPage | Problem | None:
    """Rank one group's players

     The players of one group (those with a score on the group's own board, `group:<group>`) with their
    real ranks on the current period (or `period`) of a board: a class's best on a quiz
    (`quiz:<quiz_id>`), or its players on the global board. Players without a score there are left out.
    A group of more than 1,000 players is refused (400 on `group`): read its own board. Role: `read`
    (open to everyone when public leaderboards are on), and the caller must read both this board and the
    group's board (a player token only its own groups; a scoped key needs both patterns, such as
    `quiz:*` and `group:class-4b`). The answer carries an `ETag`; the same request with `If-None-Match`
    naming it gets 304 while nothing changed.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | LeaderboardPage | Problem
    """

    return sync_detailed(
        board=board,
        window=window,
        client=client,
        period=period,
        group=group,
    ).parsed


async def asyncio_detailed(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    group: str,
) -> Response[Any | LeaderboardPage | Problem]:
    """Rank one group's players

     The players of one group (those with a score on the group's own board, `group:<group>`) with their
    real ranks on the current period (or `period`) of a board: a class's best on a quiz
    (`quiz:<quiz_id>`), or its players on the global board. Players without a score there are left out.
    A group of more than 1,000 players is refused (400 on `group`): read its own board. Role: `read`
    (open to everyone when public leaderboards are on), and the caller must read both this board and the
    group's board (a player token only its own groups; a scoped key needs both patterns, such as
    `quiz:*` and `group:class-4b`). The answer carries an `ETag`; the same request with `If-None-Match`
    naming it gets 304 while nothing changed.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | LeaderboardPage | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        group=group,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    group: str,
) -> Any | LeaderboardPage | Problem | None:
    """Rank one group's players

     The players of one group (those with a score on the group's own board, `group:<group>`) with their
    real ranks on the current period (or `period`) of a board: a class's best on a quiz
    (`quiz:<quiz_id>`), or its players on the global board. Players without a score there are left out.
    A group of more than 1,000 players is refused (400 on `group`): read its own board. Role: `read`
    (open to everyone when public leaderboards are on), and the caller must read both this board and the
    group's board (a player token only its own groups; a scoped key needs both patterns, such as
    `quiz:*` and `group:class-4b`). The answer carries an `ETag`; the same request with `If-None-Match`
    naming it gets 304 while nothing changed.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | LeaderboardPage | Problem
    """

    return (
        await asyncio_detailed(
            board=board,
            window=window,
            client=client,
            period=period,
            group=group,
        )
    ).parsed
