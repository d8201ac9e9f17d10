from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_page import AuditPage
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    actor: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["actor"] = actor

    params["q"] = q

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/audit",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuditPage | Problem | None:
    if response.status_code == 200:
        response_200 = AuditPage.from_dict(response.json())

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
) -> Response[AuditPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    actor: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
) -> Response[AuditPage | Problem]:
    """The audit trail of admin actions

     Who did what admin action when, newest first: each `POST`, `PUT` or `DELETE` on a `/v1/admin/…`
    route, and each erasure of a player (`DELETE /v1/users/{id}`), that an API key or the bootstrap key
    (`bootstrap`) sent and that was answered 2xx; dry runs are left out. An erased player's id is kept
    only as `sha256:` and the first 16 hex digits of its SHA-256. Entries are kept in PostgreSQL for as
    long as the database is. Role: `admin`.

    Args:
        actor (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditPage | Problem]
    """

    kwargs = _get_kwargs(
        actor=actor,
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
    client: AuthenticatedClient | Client,
    actor: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
) -> AuditPage | Problem | None:
    """The audit trail of admin actions

     Who did what admin action when, newest first: each `POST`, `PUT` or `DELETE` on a `/v1/admin/…`
    route, and each erasure of a player (`DELETE /v1/users/{id}`), that an API key or the bootstrap key
    (`bootstrap`) sent and that was answered 2xx; dry runs are left out. An erased player's id is kept
    only as `sha256:` and the first 16 hex digits of its SHA-256. Entries are kept in PostgreSQL for as
    long as the database is. Role: `admin`.

    Args:
        actor (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditPage | Problem
    """

    return sync_detailed(
        client=client,
        actor=actor,
        q=q,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    actor: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
) -> Response[AuditPage | Problem]:
    """The audit trail of admin actions

     Who did what admin action when, newest first: each `POST`, `PUT` or `DELETE` on a `/v1/admin/…`
    route, and each erasure of a player (`DELETE /v1/users/{id}`), that an API key or the bootstrap key
    (`bootstrap`) sent and that was answered 2xx; dry runs are left out. An erased player's id is kept
    only as `sha256:` and the first 16 hex digits of its SHA-256. Entries are kept in PostgreSQL for as
    long as the database is. Role: `admin`.

    Args:
        actor (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditPage | Problem]
    """

    kwargs = _get_kwargs(
        actor=actor,
        q=q,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    actor: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
) -> AuditPage | Problem | None:
    """The audit trail of admin actions

     Who did what admin action when, newest first: each `POST`, `PUT` or `DELETE` on a `/v1/admin/…`
    route, and each erasure of a player (`DELETE /v1/users/{id}`), that an API key or the bootstrap key
    (`bootstrap`) sent and that was answered 2xx; dry runs are left out. An erased player's id is kept
    only as `sha256:` and the first 16 hex digits of its SHA-256. Entries are kept in PostgreSQL for as
    long as the database is. Role: `admin`.

    Args:
        actor (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditPage | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            actor=actor,
            q=q,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
