from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.close_period_window import ClosePeriodWindow
from ...models.period_close_report import PeriodCloseReport
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    board: str,
    window: ClosePeriodWindow,
    period: str,
    *,
    dry_run: bool | Unset = False,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["dry_run"] = dry_run

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/periods/{board}/{window}/{period}/close".format(
            board=quote(str(board), safe=""),
            window=quote(str(window), safe=""),
            period=quote(str(period), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PeriodCloseReport | Problem | None:
    if response.status_code == 200:
        response_200 = PeriodCloseReport.from_dict(response.json())

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
) -> Response[PeriodCloseReport | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    board: str,
    window: ClosePeriodWindow,
    period: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
) -> Response[PeriodCloseReport | Problem]:
    """Close a period now

     Closes one ended period of a day, week or month window without waiting for the `close-periods` job
    (which closes every period once its end plus the grace time has passed): in one transaction it takes
    the final snapshot of the whole board, awards medals if the window awards them, marks the period
    closed and writes the `period.closed` and `medal.awarded` events. From then on the period is read
    from its final snapshot. The period must have ended: closing one still running is a conflict (409);
    a contest's run under way is closed early with `POST /v1/admin/contests/{id}/close`. Idempotent: a
    period already closed is left as it was and reported `already-closed` with the medals it awarded.
    With `dry_run=true` nothing is written; the report shows the players and who would get which medal.
    Role: `admin`.

    Args:
        board (str):
        window (ClosePeriodWindow):
        period (str):
        dry_run (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeriodCloseReport | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        dry_run=dry_run,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    board: str,
    window: ClosePeriodWindow,
    period: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
) -> PeriodCloseReport | Problem | None:
    """Close a period now

     Closes one ended period of a day, week or month window without waiting for the `close-periods` job
    (which closes every period once its end plus the grace time has passed): in one transaction it takes
    the final snapshot of the whole board, awards medals if the window awards them, marks the period
    closed and writes the `period.closed` and `medal.awarded` events. From then on the period is read
    from its final snapshot. The period must have ended: closing one still running is a conflict (409);
    a contest's run under way is closed early with `POST /v1/admin/contests/{id}/close`. Idempotent: a
    period already closed is left as it was and reported `already-closed` with the medals it awarded.
    With `dry_run=true` nothing is written; the report shows the players and who would get which medal.
    Role: `admin`.

    Args:
        board (str):
        window (ClosePeriodWindow):
        period (str):
        dry_run (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeriodCloseReport | Problem
    """

    return sync_detailed(
        board=board,
        window=window,
        period=period,
        client=client,
        dry_run=dry_run,
    ).parsed


async def asyncio_detailed(
    board: str,
    window: ClosePeriodWindow,
    period: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
) -> Response[PeriodCloseReport | Problem]:
    """Close a period now

     Closes one ended period of a day, week or month window without waiting for the `close-periods` job
    (which closes every period once its end plus the grace time has passed): in one transaction it takes
    the final snapshot of the whole board, awards medals if the window awards them, marks the period
    closed and writes the `period.closed` and `medal.awarded` events. From then on the period is read
    from its final snapshot. The period must have ended: closing one still running is a conflict (409);
    a contest's run under way is closed early with `POST /v1/admin/contests/{id}/close`. Idempotent: a
    period already closed is left as it was and reported `already-closed` with the medals it awarded.
    With `dry_run=true` nothing is written; the report shows the players and who would get which medal.
    Role: `admin`.

    Args:
        board (str):
        window (ClosePeriodWindow):
        period (str):
        dry_run (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeriodCloseReport | Problem]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        dry_run=dry_run,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    board: str,
    window: ClosePeriodWindow,
    period: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
) -> PeriodCloseReport | Problem | None:
    """Close a period now

     Closes one ended period of a day, week or month window without waiting for the `close-periods` job
    (which closes every period once its end plus the grace time has passed): in one transaction it takes
    the final snapshot of the whole board, awards medals if the window awards them, marks the period
    closed and writes the `period.closed` and `medal.awarded` events. From then on the period is read
    from its final snapshot. The period must have ended: closing one still running is a conflict (409);
    a contest's run under way is closed early with `POST /v1/admin/contests/{id}/close`. Idempotent: a
    period already closed is left as it was and reported `already-closed` with the medals it awarded.
    With `dry_run=true` nothing is written; the report shows the players and who would get which medal.
    Role: `admin`.

    Args:
        board (str):
        window (ClosePeriodWindow):
        period (str):
        dry_run (bool | Unset):  Default: False.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeriodCloseReport | Problem
    """

    return (
        await asyncio_detailed(
            board=board,
            window=window,
            period=period,
            client=client,
            dry_run=dry_run,
        )
    ).parsed
