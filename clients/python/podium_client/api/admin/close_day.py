import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.closed_day import ClosedDay
from ...models.closed_day_request import ClosedDayRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    day: datetime.date,
    *,
    body: ClosedDayRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/admin/calendar/closed-days/{day}".format(
            day=quote(str(day), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ClosedDay | Problem | None:
    if response.status_code == 200:
        response_200 = ClosedDay.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

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
) -> Response[ClosedDay | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    day: datetime.date,
    *,
    client: AuthenticatedClient | Client,
    body: ClosedDayRequest,
) -> Response[ClosedDay | Problem]:
    """Close a day

     Marks a date closed (or updates its note). Reminders due on that local date are not sent. Role:
    `admin`.

    Args:
        day (datetime.date):
        body (ClosedDayRequest): Why the day is closed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClosedDay | Problem]
    """

    kwargs = _get_kwargs(
        day=day,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    day: datetime.date,
    *,
    client: AuthenticatedClient | Client,
    body: ClosedDayRequest,
) -> ClosedDay | Problem | None:
    """Close a day

     Marks a date closed (or updates its note). Reminders due on that local date are not sent. Role:
    `admin`.

    Args:
        day (datetime.date):
        body (ClosedDayRequest): Why the day is closed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClosedDay | Problem
    """

    return sync_detailed(
        day=day,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    day: datetime.date,
    *,
    client: AuthenticatedClient | Client,
    body: ClosedDayRequest,
) -> Response[ClosedDay | Problem]:
    """Close a day

     Marks a date closed (or updates its note). Reminders due on that local date are not sent. Role:
    `admin`.

    Args:
        day (datetime.date):
        body (ClosedDayRequest): Why the day is closed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClosedDay | Problem]
    """

    kwargs = _get_kwargs(
        day=day,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    day: datetime.date,
    *,
    client: AuthenticatedClient | Client,
    body: ClosedDayRequest,
) -> ClosedDay | Problem | None:
    """Close a day

     Marks a date closed (or updates its note). Reminders due on that local date are not sent. Role:
    `admin`.

    Args:
        day (datetime.date):
        body (ClosedDayRequest): Why the day is closed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClosedDay | Problem
    """

    return (
        await asyncio_detailed(
            day=day,
            client=client,
            body=body,
        )
    ).parsed
