from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_periods_window import ListPeriodsWindow
from ...models.period_list import PeriodList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    board: str,
    window: ListPeriodsWindow,
    *,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/periods/{board}/{window}".format(
            board=quote(str(board), safe=""),
            window=quote(str(window), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PeriodList | Problem | None:
    if response.status_code == 200:
        response_200 = PeriodList.from_dict(response.json())

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
) -> Response[PeriodList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    board: str,
    window: ListPeriodsWindow,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
) -> Response[PeriodList | Problem]:
    """A board window's periods

     The newest periods of one day, week or month window of a board, newest first: each with its bounds,
    when it closes (its end plus the grace for late completions), whether it is `open`, `due` (its close
    time has passed; the next `close-periods` run, or `POST …/close`, closes it) or `closed`, its
    players (on the final board once closed) and the medals it awarded. A period is listed once a score
    landed in it; the current period is always listed, with 0 players before its first score. The ops
    console (`/console`) reads it. Role: `admin`.

    Args:
        board (str):
        window (ListPeriodsWindow):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeriodList | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    board: str,
    window: ListPeriodsWindow,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
) -> PeriodList | Problem | None:
    """A board window's periods

     The newest periods of one day, week or month window of a board, newest first: each with its bounds,
    when it closes (its end plus the grace for late completions), whether it is `open`, `due` (its close
    time has passed; the next `close-periods` run, or `POST …/close`, closes it) or `closed`, its
    players (on the final board once closed) and the medals it awarded. A period is listed once a score
    landed in it; the current period is always listed, with 0 players before its first score. The ops
    console (`/console`) reads it. Role: `admin`.

    Args:
        board (str):
        window (ListPeriodsWindow):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeriodList | Problem
    """

    return sync_detailed(
        board=board,
        window=window,
        client=client,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    board: str,
    window: ListPeriodsWindow,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
) -> Response[PeriodList | Problem]:
    """A board window's periods

     The newest periods of one day, week or month window of a board, newest first: each with its bounds,
    when it closes (its end plus the grace for late completions), whether it is `open`, `due` (its close
    time has passed; the next `close-periods` run, or `POST …/close`, closes it) or `closed`, its
    players (on the final board once closed) and the medals it awarded. A period is listed once a score
    landed in it; the current period is always listed, with 0 players before its first score. The ops
    console (`/console`) reads it. Role: `admin`.

    Args:
        board (str):
        window (ListPeriodsWindow):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeriodList | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    board: str,
    window: ListPeriodsWindow,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
) -> PeriodList | Problem | None:
    """A board window's periods

     The newest periods of one day, week or month window of a board, newest first: each with its bounds,
    when it closes (its end plus the grace for late completions), whether it is `open`, `due` (its close
    time has passed; the next `close-periods` run, or `POST …/close`, closes it) or `closed`, its
    players (on the final board once closed) and the medals it awarded. A period is listed once a score
    landed in it; the current period is always listed, with 0 players before its first score. The ops
    console (`/console`) reads it. Role: `admin`.

    Args:
        board (str):
        window (ListPeriodsWindow):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeriodList | Problem
    """

    return (
        await asyncio_detailed(
            board=board,
            window=window,
            client=client,
            limit=limit,
        )
    ).parsed
