from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.league import League
from ...models.league_request import LeagueRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: LeagueRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/leagues",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> League | Problem | None:
    if response.status_code == 201:
        response_201 = League.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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
) -> Response[League | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LeagueRequest,
) -> Response[League | Problem]:
    """Create a league

     Creates a league: each week (an ISO week in `time_zone`) a player's first scoring completion in
    scope places them in a cohort of their tier with room (of `cohort_size`, filled in order of arrival;
    new players enter the lowest tier); each cohort is a board `league:<id>:<tier>:<n>` with window
    `week`. When the week ends plus grace, `close-periods` closes every cohort once: final snapshot,
    medals (when `medals`), and each player's move by rank: the first `up` of a cohort move up a tier,
    the last `down` move down (in proportion for a cohort not full: up rounded up, down rounded down;
    none up from the top tier, none down from the bottom; a tie on a line goes the players' way).
    Players who did not play keep their tier. Leagues cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Leagues.

    Args:
        body (LeagueRequest): A new league. Its weeks are ISO weeks (Monday 00:00 to Monday 00:00)
            in `time_zone`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[League | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: LeagueRequest,
) -> League | Problem | None:
    """Create a league

     Creates a league: each week (an ISO week in `time_zone`) a player's first scoring completion in
    scope places them in a cohort of their tier with room (of `cohort_size`, filled in order of arrival;
    new players enter the lowest tier); each cohort is a board `league:<id>:<tier>:<n>` with window
    `week`. When the week ends plus grace, `close-periods` closes every cohort once: final snapshot,
    medals (when `medals`), and each player's move by rank: the first `up` of a cohort move up a tier,
    the last `down` move down (in proportion for a cohort not full: up rounded up, down rounded down;
    none up from the top tier, none down from the bottom; a tie on a line goes the players' way).
    Players who did not play keep their tier. Leagues cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Leagues.

    Args:
        body (LeagueRequest): A new league. Its weeks are ISO weeks (Monday 00:00 to Monday 00:00)
            in `time_zone`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        League | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LeagueRequest,
) -> Response[League | Problem]:
    """Create a league

     Creates a league: each week (an ISO week in `time_zone`) a player's first scoring completion in
    scope places them in a cohort of their tier with room (of `cohort_size`, filled in order of arrival;
    new players enter the lowest tier); each cohort is a board `league:<id>:<tier>:<n>` with window
    `week`. When the week ends plus grace, `close-periods` closes every cohort once: final snapshot,
    medals (when `medals`), and each player's move by rank: the first `up` of a cohort move up a tier,
    the last `down` move down (in proportion for a cohort not full: up rounded up, down rounded down;
    none up from the top tier, none down from the bottom; a tie on a line goes the players' way).
    Players who did not play keep their tier. Leagues cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Leagues.

    Args:
        body (LeagueRequest): A new league. Its weeks are ISO weeks (Monday 00:00 to Monday 00:00)
            in `time_zone`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[League | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: LeagueRequest,
) -> League | Problem | None:
    """Create a league

     Creates a league: each week (an ISO week in `time_zone`) a player's first scoring completion in
    scope places them in a cohort of their tier with room (of `cohort_size`, filled in order of arrival;
    new players enter the lowest tier); each cohort is a board `league:<id>:<tier>:<n>` with window
    `week`. When the week ends plus grace, `close-periods` closes every cohort once: final snapshot,
    medals (when `medals`), and each player's move by rank: the first `up` of a cohort move up a tier,
    the last `down` move down (in proportion for a cohort not full: up rounded up, down rounded down;
    none up from the top tier, none down from the bottom; a tie on a line goes the players' way).
    Players who did not play keep their tier. Leagues cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Leagues.

    Args:
        body (LeagueRequest): A new league. Its weeks are ISO weeks (Monday 00:00 to Monday 00:00)
            in `time_zone`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        League | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
