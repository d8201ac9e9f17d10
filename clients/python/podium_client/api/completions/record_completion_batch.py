from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.batch_request import BatchRequest
from ...models.batch_response import BatchResponse
from ...models.problem import Problem
from ...models.record_completion_batch_mode import (
    RecordCompletionBatchMode,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: BatchRequest,
    mode: RecordCompletionBatchMode | Unset = "all",
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode

    params["mode"] = json_mode

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/completions/batch",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BatchResponse | Problem | None:
    if response.status_code == 200:
        response_200 = BatchResponse.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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
) -> Response[BatchResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: BatchRequest,
    mode: RecordCompletionBatchMode | Unset = "all",
) -> Response[BatchResponse | Problem]:
    """Record up to 500 completions

     Offline sync. With `mode=all` (the default) validation is all or nothing: one invalid item rejects
    the batch (400, fields named `completions[i].<field>`) and records nothing. With `mode=partial`
    every valid item is recorded and each invalid item gets its own result with status 400 (invalid
    fields, named as above), 403 (a player token writing for another player or a group it does not vouch
    for) or 422 (implausible for a player token), so one corrupt item in an offline queue does not hold
    back the others; `invalid` counts them. An item older than the age limit is invalid only if its id
    was never recorded; otherwise it is a replay. Otherwise every item is recorded with the same
    idempotency rules as a single completion and gets its own result. Role: `ingest`. A player token may
    sync only its own completions, with `groups` it vouches for (else 403 for the whole batch, or for
    that item with `mode=partial`).

    Args:
        mode (RecordCompletionBatchMode | Unset):  Default: 'all'.
        body (BatchRequest): Up to 500 completions (offline sync). Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        mode=mode,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: BatchRequest,
    mode: RecordCompletionBatchMode | Unset = "all",
) -> BatchResponse | Problem | None:
    """Record up to 500 completions

     Offline sync. With `mode=all` (the default) validation is all or nothing: one invalid item rejects
    the batch (400, fields named `completions[i].<field>`) and records nothing. With `mode=partial`
    every valid item is recorded and each invalid item gets its own result with status 400 (invalid
    fields, named as above), 403 (a player token writing for another player or a group it does not vouch
    for) or 422 (implausible for a player token), so one corrupt item in an offline queue does not hold
    back the others; `invalid` counts them. An item older than the age limit is invalid only if its id
    was never recorded; otherwise it is a replay. Otherwise every item is recorded with the same
    idempotency rules as a single completion and gets its own result. Role: `ingest`. A player token may
    sync only its own completions, with `groups` it vouches for (else 403 for the whole batch, or for
    that item with `mode=partial`).

    Args:
        mode (RecordCompletionBatchMode | Unset):  Default: 'all'.
        body (BatchRequest): Up to 500 completions (offline sync). Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResponse | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        mode=mode,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: BatchRequest,
    mode: RecordCompletionBatchMode | Unset = "all",
) -> Response[BatchResponse | Problem]:
    """Record up to 500 completions

     Offline sync. With `mode=all` (the default) validation is all or nothing: one invalid item rejects
    the batch (400, fields named `completions[i].<field>`) and records nothing. With `mode=partial`
    every valid item is recorded and each invalid item gets its own result with status 400 (invalid
    fields, named as above), 403 (a player token writing for another player or a group it does not vouch
    for) or 422 (implausible for a player token), so one corrupt item in an offline queue does not hold
    back the others; `invalid` counts them. An item older than the age limit is invalid only if its id
    was never recorded; otherwise it is a replay. Otherwise every item is recorded with the same
    idempotency rules as a single completion and gets its own result. Role: `ingest`. A player token may
    sync only its own completions, with `groups` it vouches for (else 403 for the whole batch, or for
    that item with `mode=partial`).

    Args:
        mode (RecordCompletionBatchMode | Unset):  Default: 'all'.
        body (BatchRequest): Up to 500 completions (offline sync). Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        mode=mode,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: BatchRequest,
    mode: RecordCompletionBatchMode | Unset = "all",
) -> BatchResponse | Problem | None:
    """Record up to 500 completions

     Offline sync. With `mode=all` (the default) validation is all or nothing: one invalid item rejects
    the batch (400, fields named `completions[i].<field>`) and records nothing. With `mode=partial`
    every valid item is recorded and each invalid item gets its own result with status 400 (invalid
    fields, named as above), 403 (a player token writing for another player or a group it does not vouch
    for) or 422 (implausible for a player token), so one corrupt item in an offline queue does not hold
    back the others; `invalid` counts them. An item older than the age limit is invalid only if its id
    was never recorded; otherwise it is a replay. Otherwise every item is recorded with the same
    idempotency rules as a single completion and gets its own result. Role: `ingest`. A player token may
    sync only its own completions, with `groups` it vouches for (else 403 for the whole batch, or for
    that item with `mode=partial`).

    Args:
        mode (RecordCompletionBatchMode | Unset):  Default: 'all'.
        body (BatchRequest): Up to 500 completions (offline sync). Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            mode=mode,
        )
    ).parsed
