from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.contest_list import ContestList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["status"] = status

    params["q"] = q

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/contests",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ContestList | Problem | None:
    if response.status_code == 200:
        response_200 = ContestList.from_dict(response.json())

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
) -> Response[ContestList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[ContestList | Problem]:
    """List contests

     The contests the caller may read, most relevant first: running (ending soonest first), between runs
    and scheduled (starting soonest first), then ended and cancelled (latest first), a page at a time;
    `status` and `q` narrow the list, and `total` counts what matches. A contest is readable by whoever
    may read one of the boards of its scope (a player token in group `5c` reads a contest of groups `5c`
    and `5d`); a key scoped to `contest:<id>` reads that contest. Role: `read` (no key needed when
    leaderboards are configured public). Display keys cannot list.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ContestList | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        q=q,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> ContestList | Problem | None:
    """List contests

     The contests the caller may read, most relevant first: running (ending soonest first), between runs
    and scheduled (starting soonest first), then ended and cancelled (latest first), a page at a time;
    `status` and `q` narrow the list, and `total` counts what matches. A contest is readable by whoever
    may read one of the boards of its scope (a player token in group `5c` reads a contest of groups `5c`
    and `5d`); a key scoped to `contest:<id>` reads that contest. Role: `read` (no key needed when
    leaderboards are configured public). Display keys cannot list.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ContestList | Problem
    """

    return sync_detailed(
        client=client,
        status=status,
        q=q,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[ContestList | Problem]:
    """List contests

     The contests the caller may read, most relevant first: running (ending soonest first), between runs
    and scheduled (starting soonest first), then ended and cancelled (latest first), a page at a time;
    `status` and `q` narrow the list, and `total` counts what matches. A contest is readable by whoever
    may read one of the boards of its scope (a player token in group `5c` reads a contest of groups `5c`
    and `5d`); a key scoped to `contest:<id>` reads that contest. Role: `read` (no key needed when
    leaderboards are configured public). Display keys cannot list.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ContestList | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        q=q,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> ContestList | Problem | None:
    """List contests

     The contests the caller may read, most relevant first: running (ending soonest first), between runs
    and scheduled (starting soonest first), then ended and cancelled (latest first), a page at a time;
    `status` and `q` narrow the list, and `total` counts what matches. A contest is readable by whoever
    may read one of the boards of its scope (a player token in group `5c` reads a contest of groups `5c`
    and `5d`); a key scoped to `contest:<id>` reads that contest. Role: `read` (no key needed when
    leaderboards are configured public). Display keys cannot list.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ContestList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            q=q,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
