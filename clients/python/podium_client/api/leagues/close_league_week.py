from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.league_week_report import LeagueWeekReport
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
    tier: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["dry_run"] = dry_run

    params["period"] = period

    params["tier"] = tier

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/leagues/{id}/close".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> LeagueWeekReport | Problem | None:
    if response.status_code == 200:
        response_200 = LeagueWeekReport.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[LeagueWeekReport | Problem]:
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
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
    tier: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[LeagueWeekReport | Problem]:
    """Close a league week

     Closes every cohort of week `period` still open, each in its own transaction exactly as `close-
    periods` would (final snapshot, medals, moves, `period.closed`, `medal.awarded` and
    `league.promoted`/`league.relegated`/`league.stayed` events), and answers the week's report. With
    `dry_run=true` nothing is written: the report shows what the close would do, from the live standings
    of open cohorts and the results of closed ones. The sums by tier cover every cohort; `tier` and
    `limit` choose the cohorts whose players are listed. 409 before the week's end plus the close grace,
    while completions played in it still count (so always for the week under way, the default), and
    while an older week of the league has a cohort open: weeks close in turn. A dry run may look at any
    week. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):
        tier (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LeagueWeekReport | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        dry_run=dry_run,
        period=period,
        tier=tier,
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
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
    tier: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> LeagueWeekReport | Problem | None:
    """Close a league week

     Closes every cohort of week `period` still open, each in its own transaction exactly as `close-
    periods` would (final snapshot, medals, moves, `period.closed`, `medal.awarded` and
    `league.promoted`/`league.relegated`/`league.stayed` events), and answers the week's report. With
    `dry_run=true` nothing is written: the report shows what the close would do, from the live standings
    of open cohorts and the results of closed ones. The sums by tier cover every cohort; `tier` and
    `limit` choose the cohorts whose players are listed. 409 before the week's end plus the close grace,
    while completions played in it still count (so always for the week under way, the default), and
    while an older week of the league has a cohort open: weeks close in turn. A dry run may look at any
    week. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):
        tier (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LeagueWeekReport | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        dry_run=dry_run,
        period=period,
        tier=tier,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
    tier: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[LeagueWeekReport | Problem]:
    """Close a league week

     Closes every cohort of week `period` still open, each in its own transaction exactly as `close-
    periods` would (final snapshot, medals, moves, `period.closed`, `medal.awarded` and
    `league.promoted`/`league.relegated`/`league.stayed` events), and answers the week's report. With
    `dry_run=true` nothing is written: the report shows what the close would do, from the live standings
    of open cohorts and the results of closed ones. The sums by tier cover every cohort; `tier` and
    `limit` choose the cohorts whose players are listed. 409 before the week's end plus the close grace,
    while completions played in it still count (so always for the week under way, the default), and
    while an older week of the league has a cohort open: weeks close in turn. A dry run may look at any
    week. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):
        tier (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LeagueWeekReport | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        dry_run=dry_run,
        period=period,
        tier=tier,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
    tier: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> LeagueWeekReport | Problem | None:
    """Close a league week

     Closes every cohort of week `period` still open, each in its own transaction exactly as `close-
    periods` would (final snapshot, medals, moves, `period.closed`, `medal.awarded` and
    `league.promoted`/`league.relegated`/`league.stayed` events), and answers the week's report. With
    `dry_run=true` nothing is written: the report shows what the close would do, from the live standings
    of open cohorts and the results of closed ones. The sums by tier cover every cohort; `tier` and
    `limit` choose the cohorts whose players are listed. 409 before the week's end plus the close grace,
    while completions played in it still count (so always for the week under way, the default), and
    while an older week of the league has a cohort open: weeks close in turn. A dry run may look at any
    week. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):
        tier (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LeagueWeekReport | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            dry_run=dry_run,
            period=period,
            tier=tier,
            limit=limit,
        )
    ).parsed
