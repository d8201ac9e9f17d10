from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.group_goals import GroupGoals
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    group: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/groups/{group}/goals".format(
            group=quote(str(group), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GroupGoals | Problem | None:
    if response.status_code == 200:
        response_200 = GroupGoals.from_dict(response.json())

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
) -> Response[GroupGoals | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    group: str,
    *,
    client: AuthenticatedClient,
) -> Response[GroupGoals | Problem]:
    """A group's class goals

     The class goals that name the group (ended ones left out), by id, each with the group's progress in
    its period under way and the seconds left in it; empty when none names it. The classroom display of
    board `group:<group>` shows them. They name no player, so whoever may read a page of board
    `group:<group>` reads them, a display key of that board included. Role: `read` or `display` (no key
    needed when leaderboards are configured public).

    Args:
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupGoals | Problem]
    """

    kwargs = _get_kwargs(
        group=group,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    group: str,
    *,
    client: AuthenticatedClient,
) -> GroupGoals | Problem | None:
    """A group's class goals

     The class goals that name the group (ended ones left out), by id, each with the group's progress in
    its period under way and the seconds left in it; empty when none names it. The classroom display of
    board `group:<group>` shows them. They name no player, so whoever may read a page of board
    `group:<group>` reads them, a display key of that board included. Role: `read` or `display` (no key
    needed when leaderboards are configured public).

    Args:
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupGoals | Problem
    """

    return sync_detailed(
        group=group,
        client=client,
    ).parsed


async def asyncio_detailed(
    group: str,
    *,
    client: AuthenticatedClient,
) -> Response[GroupGoals | Problem]:
    """A group's class goals

     The class goals that name the group (ended ones left out), by id, each with the group's progress in
    its period under way and the seconds left in it; empty when none names it. The classroom display of
    board `group:<group>` shows them. They name no player, so whoever may read a page of board
    `group:<group>` reads them, a display key of that board included. Role: `read` or `display` (no key
    needed when leaderboards are configured public).

    Args:
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GroupGoals | Problem]
    """

    kwargs = _get_kwargs(
        group=group,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    group: str,
    *,
    client: AuthenticatedClient,
) -> GroupGoals | Problem | None:
    """A group's class goals

     The class goals that name the group (ended ones left out), by id, each with the group's progress in
    its period under way and the seconds left in it; empty when none names it. The classroom display of
    board `group:<group>` shows them. They name no player, so whoever may read a page of board
    `group:<group>` reads them, a display key of that board included. Role: `read` or `display` (no key
    needed when leaderboards are configured public).

    Args:
        group (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GroupGoals | Problem
    """

    return (
        await asyncio_detailed(
            group=group,
            client=client,
        )
    ).parsed
