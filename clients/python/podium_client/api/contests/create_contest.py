from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.contest import Contest
from ...models.contest_request import ContestRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: ContestRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/contests",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Contest | Problem | None:
    if response.status_code == 201:
        response_201 = Contest.from_dict(response.json())

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
) -> Response[Contest | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ContestRequest,
) -> Response[Contest | Problem]:
    """Create a contest

     Creates a contest: a board (`contest:<id>`, window `contest`) whose periods are the runs of a
    schedule, either one explicit `[starts_at, ends_at)` or a recurring `cron` in `time_zone` with runs
    of `duration_minutes` (a run also ends when the next starts; `starts_at`/`ends_at` then bound when
    runs may start). Only completions played inside a run, in the contest's scope (and, when `entry` is
    `join`, by players who joined) count, from the contest's creation on; late completions follow the
    close grace as on every board. At each run's end plus grace `close-periods` closes it once across
    replicas with a final snapshot, medals (when `medals`) and events. Every replica counts a new
    contest from the first completion batch it records after the creation committed. Contests cannot be
    edited; cancel one and create another. Role: `admin`.

    Args:
        body (ContestRequest): A new contest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Contest | Problem]
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
    body: ContestRequest,
) -> Contest | Problem | None:
    """Create a contest

     Creates a contest: a board (`contest:<id>`, window `contest`) whose periods are the runs of a
    schedule, either one explicit `[starts_at, ends_at)` or a recurring `cron` in `time_zone` with runs
    of `duration_minutes` (a run also ends when the next starts; `starts_at`/`ends_at` then bound when
    runs may start). Only completions played inside a run, in the contest's scope (and, when `entry` is
    `join`, by players who joined) count, from the contest's creation on; late completions follow the
    close grace as on every board. At each run's end plus grace `close-periods` closes it once across
    replicas with a final snapshot, medals (when `medals`) and events. Every replica counts a new
    contest from the first completion batch it records after the creation committed. Contests cannot be
    edited; cancel one and create another. Role: `admin`.

    Args:
        body (ContestRequest): A new contest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Contest | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ContestRequest,
) -> Response[Contest | Problem]:
    """Create a contest

     Creates a contest: a board (`contest:<id>`, window `contest`) whose periods are the runs of a
    schedule, either one explicit `[starts_at, ends_at)` or a recurring `cron` in `time_zone` with runs
    of `duration_minutes` (a run also ends when the next starts; `starts_at`/`ends_at` then bound when
    runs may start). Only completions played inside a run, in the contest's scope (and, when `entry` is
    `join`, by players who joined) count, from the contest's creation on; late completions follow the
    close grace as on every board. At each run's end plus grace `close-periods` closes it once across
    replicas with a final snapshot, medals (when `medals`) and events. Every replica counts a new
    contest from the first completion batch it records after the creation committed. Contests cannot be
    edited; cancel one and create another. Role: `admin`.

    Args:
        body (ContestRequest): A new contest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Contest | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ContestRequest,
) -> Contest | Problem | None:
    """Create a contest

     Creates a contest: a board (`contest:<id>`, window `contest`) whose periods are the runs of a
    schedule, either one explicit `[starts_at, ends_at)` or a recurring `cron` in `time_zone` with runs
    of `duration_minutes` (a run also ends when the next starts; `starts_at`/`ends_at` then bound when
    runs may start). Only completions played inside a run, in the contest's scope (and, when `entry` is
    `join`, by players who joined) count, from the contest's creation on; late completions follow the
    close grace as on every board. At each run's end plus grace `close-periods` closes it once across
    replicas with a final snapshot, medals (when `medals`) and events. Every replica counts a new
    contest from the first completion batch it records after the creation committed. Contests cannot be
    edited; cancel one and create another. Role: `admin`.

    Args:
        body (ContestRequest): A new contest.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Contest | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
