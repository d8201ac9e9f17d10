from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.period_comparison import PeriodComparison
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    a: str,
    b: str,
    user_id: str | Unset = UNSET,
    group: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["a"] = a

    params["b"] = b

    params["user_id"] = user_id

    params["group"] = group

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/comparisons",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | PeriodComparison | Problem | None:
    if response.status_code == 200:
        response_200 = PeriodComparison.from_dict(response.json())

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
) -> Response[Any | PeriodComparison | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    a: str,
    b: str,
    user_id: str | Unset = UNSET,
    group: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | PeriodComparison | Problem]:
    """Compare two periods or contests

     One player's (`user_id`) or one group's (`group`) standing on two board periods side by side: two
    terms, two months, two contests. A player's side is its score and rank among the players (from the
    final snapshot once the period closed). A group's side is its total and rank among the groups: in a
    contest run, the totals kept with the run's scores (each completion adds to each of its groups, or,
    for a contest of groups, to those of its groups the contest names); on a day, week or month, the sum
    of the group's own board `group:<group>` ranked against every group board, so such a side must name
    that board. Answers carry an `ETag`. Role: `read` (no key needed when leaderboards are configured
    public); the caller must be able to read both boards.

    Args:
        a (str):
        b (str):
        user_id (str | Unset):
        group (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | PeriodComparison | Problem]
    """

    kwargs = _get_kwargs(
        a=a,
        b=b,
        user_id=user_id,
        group=group,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    a: str,
    b: str,
    user_id: str | Unset = UNSET,
    group: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | PeriodComparison | Problem | None:
    """Compare two periods or contests

     One player's (`user_id`) or one group's (`group`) standing on two board periods side by side: two
    terms, two months, two contests. A player's side is its score and rank among the players (from the
    final snapshot once the period closed). A group's side is its total and rank among the groups: in a
    contest run, the totals kept with the run's scores (each completion adds to each of its groups, or,
    for a contest of groups, to those of its groups the contest names); on a day, week or month, the sum
    of the group's own board `group:<group>` ranked against every group board, so such a side must name
    that board. Answers carry an `ETag`. Role: `read` (no key needed when leaderboards are configured
    public); the caller must be able to read both boards.

    Args:
        a (str):
        b (str):
        user_id (str | Unset):
        group (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | PeriodComparison | Problem
    """

    return sync_detailed(
        client=client,
        a=a,
        b=b,
        user_id=user_id,
        group=group,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    a: str,
    b: str,
    user_id: str | Unset = UNSET,
    group: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | PeriodComparison | Problem]:
    """Compare two periods or contests

     One player's (`user_id`) or one group's (`group`) standing on two board periods side by side: two
    terms, two months, two contests. A player's side is its score and rank among the players (from the
    final snapshot once the period closed). A group's side is its total and rank among the groups: in a
    contest run, the totals kept with the run's scores (each completion adds to each of its groups, or,
    for a contest of groups, to those of its groups the contest names); on a day, week or month, the sum
    of the group's own board `group:<group>` ranked against every group board, so such a side must name
    that board. Answers carry an `ETag`. Role: `read` (no key needed when leaderboards are configured
    public); the caller must be able to read both boards.

    Args:
        a (str):
        b (str):
        user_id (str | Unset):
        group (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | PeriodComparison | Problem]
    """

    kwargs = _get_kwargs(
        a=a,
        b=b,
        user_id=user_id,
        group=group,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    a: str,
    b: str,
    user_id: str | Unset = UNSET,
    group: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | PeriodComparison | Problem | None:
    """Compare two periods or contests

     One player's (`user_id`) or one group's (`group`) standing on two board periods side by side: two
    terms, two months, two contests. A player's side is its score and rank among the players (from the
    final snapshot once the period closed). A group's side is its total and rank among the groups: in a
    contest run, the totals kept with the run's scores (each completion adds to each of its groups, or,
    for a contest of groups, to those of its groups the contest names); on a day, week or month, the sum
    of the group's own board `group:<group>` ranked against every group board, so such a side must name
    that board. Answers carry an `ETag`. Role: `read` (no key needed when leaderboards are configured
    public); the caller must be able to read both boards.

    Args:
        a (str):
        b (str):
        user_id (str | Unset):
        group (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | PeriodComparison | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            a=a,
            b=b,
            user_id=user_id,
            group=group,
            if_none_match=if_none_match,
        )
    ).parsed
