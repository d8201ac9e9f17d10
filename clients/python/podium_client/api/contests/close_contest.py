from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.period_close_report import PeriodCloseReport
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["dry_run"] = dry_run

    params["period"] = period

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/contests/{id}/close".format(
            id=quote(str(id), safe=""),
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
    id: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
) -> Response[PeriodCloseReport | Problem]:
    """Close a contest's run now

     Closes the run under way now, before its end (or the latest run, once it has ended), exactly as
    `close-periods` would at its end: final snapshot, medals when the contest awards them (same tie
    rules), `period.closed` and `medal.awarded` events, in one transaction. Completions played after
    that miss the run. Use `dry_run=true` first to see who would get which medal, then confirm with the
    dry run's `period`. Idempotent: a run already closed is reported `already-closed`. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeriodCloseReport | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        dry_run=dry_run,
        period=period,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
) -> PeriodCloseReport | Problem | None:
    """Close a contest's run now

     Closes the run under way now, before its end (or the latest run, once it has ended), exactly as
    `close-periods` would at its end: final snapshot, medals when the contest awards them (same tie
    rules), `period.closed` and `medal.awarded` events, in one transaction. Completions played after
    that miss the run. Use `dry_run=true` first to see who would get which medal, then confirm with the
    dry run's `period`. Idempotent: a run already closed is reported `already-closed`. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeriodCloseReport | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        dry_run=dry_run,
        period=period,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
) -> Response[PeriodCloseReport | Problem]:
    """Close a contest's run now

     Closes the run under way now, before its end (or the latest run, once it has ended), exactly as
    `close-periods` would at its end: final snapshot, medals when the contest awards them (same tie
    rules), `period.closed` and `medal.awarded` events, in one transaction. Completions played after
    that miss the run. Use `dry_run=true` first to see who would get which medal, then confirm with the
    dry run's `period`. Idempotent: a run already closed is reported `already-closed`. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PeriodCloseReport | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        dry_run=dry_run,
        period=period,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    dry_run: bool | Unset = False,
    period: str | Unset = UNSET,
) -> PeriodCloseReport | Problem | None:
    """Close a contest's run now

     Closes the run under way now, before its end (or the latest run, once it has ended), exactly as
    `close-periods` would at its end: final snapshot, medals when the contest awards them (same tie
    rules), `period.closed` and `medal.awarded` events, in one transaction. Completions played after
    that miss the run. Use `dry_run=true` first to see who would get which medal, then confirm with the
    dry run's `period`. Idempotent: a run already closed is reported `already-closed`. Role: `admin`.

    Args:
        id (str):
        dry_run (bool | Unset):  Default: False.
        period (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PeriodCloseReport | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            dry_run=dry_run,
            period=period,
        )
    ).parsed
