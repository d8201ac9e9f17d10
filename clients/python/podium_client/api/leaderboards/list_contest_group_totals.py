from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.group_total_list import GroupTotalList
from ...models.leaderboard_window import LeaderboardWindow
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    board: str,
    window: LeaderboardWindow,
    *,
    period: str | Unset = UNSET,
    limit: int | Unset = 50,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["period"] = period

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/leaderboards/{board}/{window}/groups".format(
            board=quote(str(board), safe=""),
            window=quote(str(window), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | GroupTotalList | Problem | None:
    if response.status_code == 200:
        response_200 = GroupTotalList.from_dict(response.json())

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
) -> Response[Any | GroupTotalList | Problem]:
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
    limit: int | Unset = 50,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | GroupTotalList | Problem]:
    """Group totals of a contest run

     The totals of the groups that play in a contest run (the current run, or `period`), best first, ties
    by name: each completion counted in the run adds its score to the total of each of its groups (for a
    contest of groups, those the contest names). The classroom display shows them beside the players.
    Only the `contest` window keeps group totals; other windows answer 404. They name no player, so a
    display key reads them as it reads the run's page. Role: `read` or `display` (no key needed when
    leaderboards are configured public). Answers carry an `ETag`; `If-None-Match` with the current one
    gets 304. Whoever may read one of the contest's boards reads it.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 50.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GroupTotalList | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
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
    limit: int | Unset = 50,
    if_none_match: str | Unset = UNSET,
) -> Any | GroupTotalList | Problem | None:
    """Group totals of a contest run

     The totals of the groups that play in a contest run (the current run, or `period`), best first, ties
    by name: each completion counted in the run adds its score to the total of each of its groups (for a
    contest of groups, those the contest names). The classroom display shows them beside the players.
    Only the `contest` window keeps group totals; other windows answer 404. They name no player, so a
    display key reads them as it reads the run's page. Role: `read` or `display` (no key needed when
    leaderboards are configured public). Answers carry an `ETag`; `If-None-Match` with the current one
    gets 304. Whoever may read one of the contest's boards reads it.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 50.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GroupTotalList | Problem
    """

    return sync_detailed(
        board=board,
        window=window,
        client=client,
        period=period,
        limit=limit,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient,
    period: str | Unset = UNSET,
    limit: int | Unset = 50,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | GroupTotalList | Problem]:
    """Group totals of a contest run

     The totals of the groups that play in a contest run (the current run, or `period`), best first, ties
    by name: each completion counted in the run adds its score to the total of each of its groups (for a
    contest of groups, those the contest names). The classroom display shows them beside the players.
    Only the `contest` window keeps group totals; other windows answer 404. They name no player, so a
    display key reads them as it reads the run's page. Role: `read` or `display` (no key needed when
    leaderboards are configured public). Answers carry an `ETag`; `If-None-Match` with the current one
    gets 304. Whoever may read one of the contest's boards reads it.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 50.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GroupTotalList | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
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
    limit: int | Unset = 50,
    if_none_match: str | Unset = UNSET,
) -> Any | GroupTotalList | Problem | None:
    """Group totals of a contest run

     The totals of the groups that play in a contest run (the current run, or `period`), best first, ties
    by name: each completion counted in the run adds its score to the total of each of its groups (for a
    contest of groups, those the contest names). The classroom display shows them beside the players.
    Only the `contest` window keeps group totals; other windows answer 404. They name no player, so a
    display key reads them as it reads the run's page. Role: `read` or `display` (no key needed when
    leaderboards are configured public). Answers carry an `ETag`; `If-None-Match` with the current one
    gets 304. Whoever may read one of the contest's boards reads it.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 50.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GroupTotalList | Problem
    """

    return (
        await asyncio_detailed(
            board=board,
            window=window,
            client=client,
            period=period,
            limit=limit,
            if_none_match=if_none_match,
        )
    ).parsed
