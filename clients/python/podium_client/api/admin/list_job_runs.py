from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.job_run_list import JobRunList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    name: str,
    *,
    limit: int | Unset = 50,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/jobs/{name}/runs".format(
            name=quote(str(name), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> JobRunList | Problem | None:
    if response.status_code == 200:
        response_200 = JobRunList.from_dict(response.json())

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
) -> Response[JobRunList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
) -> Response[JobRunList | Problem]:
    """A job's run history

     Runs of the job, newest slot first, each with every attempt: which replica ran it, when, and how it
    ended. A replica that dies mid-run stops renewing its lease; once the lease expires another replica
    takes the run over as its next attempt and the dead one is recorded as `lease-lost`. Finished runs
    are kept 30 days by default. Role: `admin`.

    Args:
        name (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobRunList | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
) -> JobRunList | Problem | None:
    """A job's run history

     Runs of the job, newest slot first, each with every attempt: which replica ran it, when, and how it
    ended. A replica that dies mid-run stops renewing its lease; once the lease expires another replica
    takes the run over as its next attempt and the dead one is recorded as `lease-lost`. Finished runs
    are kept 30 days by default. Role: `admin`.

    Args:
        name (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobRunList | Problem
    """

    return sync_detailed(
        name=name,
        client=client,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
) -> Response[JobRunList | Problem]:
    """A job's run history

     Runs of the job, newest slot first, each with every attempt: which replica ran it, when, and how it
    ended. A replica that dies mid-run stops renewing its lease; once the lease expires another replica
    takes the run over as its next attempt and the dead one is recorded as `lease-lost`. Finished runs
    are kept 30 days by default. Role: `admin`.

    Args:
        name (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobRunList | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,
) -> JobRunList | Problem | None:
    """A job's run history

     Runs of the job, newest slot first, each with every attempt: which replica ran it, when, and how it
    ended. A replica that dies mid-run stops renewing its lease; once the lease expires another replica
    takes the run over as its next attempt and the dead one is recorded as `lease-lost`. Finished runs
    are kept 30 days by default. Role: `admin`.

    Args:
        name (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobRunList | Problem
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            limit=limit,
        )
    ).parsed
