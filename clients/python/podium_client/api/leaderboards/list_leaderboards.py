from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.board_list import BoardList
from ...models.list_leaderboards_kind import (
    ListLeaderboardsKind,
)
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    kind: ListLeaderboardsKind | Unset = UNSET,
    prefix: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 500,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind

    params["kind"] = json_kind

    params["prefix"] = prefix

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/leaderboards",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | BoardList | Problem | None:
    if response.status_code == 200:
        response_200 = BoardList.from_dict(response.json())

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
) -> Response[Any | BoardList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    kind: ListLeaderboardsKind | Unset = UNSET,
    prefix: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 500,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | BoardList | Problem]:
    """List boards

     Configured boards and every board that has had a score, with each window's current period. Role:
    `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-None-
    Match` with the current one gets 304. Scoped keys and player tokens see the boards they may read;
    display keys cannot list boards. Boards come in id order, a page at a time: `limit` (1-1000, default
    500) per page and `next_cursor` while more follow (pass it as `cursor`); `kind` keeps one kind of
    board and `prefix` the boards whose id starts with it (`group:school-12-`).

    Args:
        kind (ListLeaderboardsKind | Unset):
        prefix (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 500.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | BoardList | Problem]
    """

    kwargs = _get_kwargs(
        kind=kind,
        prefix=prefix,
        cursor=cursor,
        limit=limit,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    kind: ListLeaderboardsKind | Unset = UNSET,
    prefix: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 500,
    if_none_match: str | Unset = UNSET,
) -> Any | BoardList | Problem | None:
    """List boards

     Configured boards and every board that has had a score, with each window's current period. Role:
    `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-None-
    Match` with the current one gets 304. Scoped keys and player tokens see the boards they may read;
    display keys cannot list boards. Boards come in id order, a page at a time: `limit` (1-1000, default
    500) per page and `next_cursor` while more follow (pass it as `cursor`); `kind` keeps one kind of
    board and `prefix` the boards whose id starts with it (`group:school-12-`).

    Args:
        kind (ListLeaderboardsKind | Unset):
        prefix (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 500.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | BoardList | Problem
    """

    return sync_detailed(
        client=client,
        kind=kind,
        prefix=prefix,
        cursor=cursor,
        limit=limit,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    kind: ListLeaderboardsKind | Unset = UNSET,
    prefix: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 500,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | BoardList | Problem]:
    """List boards

     Configured boards and every board that has had a score, with each window's current period. Role:
    `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-None-
    Match` with the current one gets 304. Scoped keys and player tokens see the boards they may read;
    display keys cannot list boards. Boards come in id order, a page at a time: `limit` (1-1000, default
    500) per page and `next_cursor` while more follow (pass it as `cursor`); `kind` keeps one kind of
    board and `prefix` the boards whose id starts with it (`group:school-12-`).

    Args:
        kind (ListLeaderboardsKind | Unset):
        prefix (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 500.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | BoardList | Problem]
    """

    kwargs = _get_kwargs(
        kind=kind,
        prefix=prefix,
        cursor=cursor,
        limit=limit,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    kind: ListLeaderboardsKind | Unset = UNSET,
    prefix: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 500,
    if_none_match: str | Unset = UNSET,
) -> Any | BoardList | Problem | None:
    """List boards

     Configured boards and every board that has had a score, with each window's current period. Role:
    `read` (no key needed when leaderboards are configured public). Answers carry an `ETag`; `If-None-
    Match` with the current one gets 304. Scoped keys and player tokens see the boards they may read;
    display keys cannot list boards. Boards come in id order, a page at a time: `limit` (1-1000, default
    500) per page and `next_cursor` while more follow (pass it as `cursor`); `kind` keeps one kind of
    board and `prefix` the boards whose id starts with it (`group:school-12-`).

    Args:
        kind (ListLeaderboardsKind | Unset):
        prefix (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 500.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | BoardList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            kind=kind,
            prefix=prefix,
            cursor=cursor,
            limit=limit,
            if_none_match=if_none_match,
        )
    ).parsed
