from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.job_run import JobRun
from ...models.problem import Problem
from ...models.run_job_request import RunJobRequest
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: RunJobRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/jobs/{name}/run".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> JobRun | Problem | None:
    if response.status_code == 202:
        response_202 = JobRun.from_dict(response.json())

        return response_202

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

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[JobRun | Problem]:
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
    body: RunJobRequest,
) -> Response[JobRun | Problem]:
    """Run a job now

     Asks for a run of the job for `slot` (`now` by default, or an RFC 3339 time, e.g. a slot that failed
    or was missed). Podium records a pending `manual` run and answers 202 at once: any replica's
    scheduler may claim it within a tick and run it, with the job's usual retries, lease and history;
    follow it in the run history. A slot that failed or was missed is made pending again with a fresh
    set of attempts; a given slot whose run is pending, running or succeeded is a conflict (409). `now`
    is never refused: it takes the current second, or the first later second no run holds (a scheduled
    run on the same second, another request). A paused job's run waits until the job is resumed. Role:
    `admin`.

    Args:
        name (str):
        body (RunJobRequest): The slot to run. Unknown keys are ignored; `{}` runs the current
            second.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobRun | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: RunJobRequest,
) -> JobRun | Problem | None:
    """Run a job now

     Asks for a run of the job for `slot` (`now` by default, or an RFC 3339 time, e.g. a slot that failed
    or was missed). Podium records a pending `manual` run and answers 202 at once: any replica's
    scheduler may claim it within a tick and run it, with the job's usual retries, lease and history;
    follow it in the run history. A slot that failed or was missed is made pending again with a fresh
    set of attempts; a given slot whose run is pending, running or succeeded is a conflict (409). `now`
    is never refused: it takes the current second, or the first later second no run holds (a scheduled
    run on the same second, another request). A paused job's run waits until the job is resumed. Role:
    `admin`.

    Args:
        name (str):
        body (RunJobRequest): The slot to run. Unknown keys are ignored; `{}` runs the current
            second.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobRun | Problem
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: RunJobRequest,
) -> Response[JobRun | Problem]:
    """Run a job now

     Asks for a run of the job for `slot` (`now` by default, or an RFC 3339 time, e.g. a slot that failed
    or was missed). Podium records a pending `manual` run and answers 202 at once: any replica's
    scheduler may claim it within a tick and run it, with the job's usual retries, lease and history;
    follow it in the run history. A slot that failed or was missed is made pending again with a fresh
    set of attempts; a given slot whose run is pending, running or succeeded is a conflict (409). `now`
    is never refused: it takes the current second, or the first later second no run holds (a scheduled
    run on the same second, another request). A paused job's run waits until the job is resumed. Role:
    `admin`.

    Args:
        name (str):
        body (RunJobRequest): The slot to run. Unknown keys are ignored; `{}` runs the current
            second.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobRun | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: RunJobRequest,
) -> JobRun | Problem | None:
    """Run a job now

     Asks for a run of the job for `slot` (`now` by default, or an RFC 3339 time, e.g. a slot that failed
    or was missed). Podium records a pending `manual` run and answers 202 at once: any replica's
    scheduler may claim it within a tick and run it, with the job's usual retries, lease and history;
    follow it in the run history. A slot that failed or was missed is made pending again with a fresh
    set of attempts; a given slot whose run is pending, running or succeeded is a conflict (409). `now`
    is never refused: it takes the current second, or the first later second no run holds (a scheduled
    run on the same second, another request). A paused job's run waits until the job is resumed. Role:
    `admin`.

    Args:
        name (str):
        body (RunJobRequest): The slot to run. Unknown keys are ignored; `{}` runs the current
            second.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobRun | Problem
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
