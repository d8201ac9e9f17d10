from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.completion_request import CompletionRequest
from ...models.completion_response import CompletionResponse
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: CompletionRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/completions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CompletionResponse | Problem | None:
    if response.status_code == 200:
        response_200 = CompletionResponse.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CompletionResponse.from_dict(response.json())

        return response_201

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[CompletionResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CompletionRequest,
) -> Response[CompletionResponse | Problem]:
    """Record a completion

     Records one finished quiz and answers with the points it earned, the player's new totals, level and
    ranks, and the goals it counted toward. Idempotent by `id`: the same id with the same body replays
    the first answer (200); with a different body it is a conflict (409). A replay is answered even when
    its `completed_at` is now older than the age limit; a completion that old which was never recorded
    is refused (400). Role: `ingest`. A player token may post only its own `user_id`, with `groups` it
    vouches for (else 403).

    Args:
        body (CompletionRequest): One finished quiz. Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompletionResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CompletionRequest,
) -> CompletionResponse | Problem | None:
    """Record a completion

     Records one finished quiz and answers with the points it earned, the player's new totals, level and
    ranks, and the goals it counted toward. Idempotent by `id`: the same id with the same body replays
    the first answer (200); with a different body it is a conflict (409). A replay is answered even when
    its `completed_at` is now older than the age limit; a completion that old which was never recorded
    is refused (400). Role: `ingest`. A player token may post only its own `user_id`, with `groups` it
    vouches for (else 403).

    Args:
        body (CompletionRequest): One finished quiz. Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompletionResponse | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CompletionRequest,
) -> Response[CompletionResponse | Problem]:
    """Record a completion

     Records one finished quiz and answers with the points it earned, the player's new totals, level and
    ranks, and the goals it counted toward. Idempotent by `id`: the same id with the same body replays
    the first answer (200); with a different body it is a conflict (409). A replay is answered even when
    its `completed_at` is now older than the age limit; a completion that old which was never recorded
    is refused (400). Role: `ingest`. A player token may post only its own `user_id`, with `groups` it
    vouches for (else 403).

    Args:
        body (CompletionRequest): One finished quiz. Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CompletionResponse | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CompletionRequest,
) -> CompletionResponse | Problem | None:
    """Record a completion

     Records one finished quiz and answers with the points it earned, the player's new totals, level and
    ranks, and the goals it counted toward. Idempotent by `id`: the same id with the same body replays
    the first answer (200); with a different body it is a conflict (409). A replay is answered even when
    its `completed_at` is now older than the age limit; a completion that old which was never recorded
    is refused (400). Role: `ingest`. A player token may post only its own `user_id`, with `groups` it
    vouches for (else 403).

    Args:
        body (CompletionRequest): One finished quiz. Unknown keys are ignored.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CompletionResponse | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
