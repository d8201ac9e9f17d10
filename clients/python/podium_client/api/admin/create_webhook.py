from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_webhook_request import CreateWebhookRequest
from ...models.problem import Problem
from ...models.webhook import Webhook
from ...types import Response


def _get_kwargs(
    *,
    body: CreateWebhookRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Webhook | None:
    if response.status_code == 201:
        response_201 = Webhook.from_dict(response.json())

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
) -> Response[Problem | Webhook]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateWebhookRequest,
) -> Response[Problem | Webhook]:
    """Register a webhook

     Registers a receiver for some event types. Every event of those types written after this is POSTed
    to it as JSON `{id, type, occurred_at, data}` with headers `Podium-Event-Id` (deduplicate on it),
    `Podium-Event-Type` and `Podium-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with
    the secret>`. A 2xx answer delivers; anything else, or no answer within the timeout, is retried with
    exponential backoff and jitter until the attempts run out, then the delivery is dead. The secret is
    never shown again. Role: `admin`.

    Args:
        body (CreateWebhookRequest): A webhook to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Webhook]
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
    body: CreateWebhookRequest,
) -> Problem | Webhook | None:
    """Register a webhook

     Registers a receiver for some event types. Every event of those types written after this is POSTed
    to it as JSON `{id, type, occurred_at, data}` with headers `Podium-Event-Id` (deduplicate on it),
    `Podium-Event-Type` and `Podium-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with
    the secret>`. A 2xx answer delivers; anything else, or no answer within the timeout, is retried with
    exponential backoff and jitter until the attempts run out, then the delivery is dead. The secret is
    never shown again. Role: `admin`.

    Args:
        body (CreateWebhookRequest): A webhook to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Webhook
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateWebhookRequest,
) -> Response[Problem | Webhook]:
    """Register a webhook

     Registers a receiver for some event types. Every event of those types written after this is POSTed
    to it as JSON `{id, type, occurred_at, data}` with headers `Podium-Event-Id` (deduplicate on it),
    `Podium-Event-Type` and `Podium-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with
    the secret>`. A 2xx answer delivers; anything else, or no answer within the timeout, is retried with
    exponential backoff and jitter until the attempts run out, then the delivery is dead. The secret is
    never shown again. Role: `admin`.

    Args:
        body (CreateWebhookRequest): A webhook to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Webhook]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateWebhookRequest,
) -> Problem | Webhook | None:
    """Register a webhook

     Registers a receiver for some event types. Every event of those types written after this is POSTed
    to it as JSON `{id, type, occurred_at, data}` with headers `Podium-Event-Id` (deduplicate on it),
    `Podium-Event-Type` and `Podium-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with
    the secret>`. A 2xx answer delivers; anything else, or no answer within the timeout, is retried with
    exponential backoff and jitter until the attempts run out, then the delivery is dead. The secret is
    never shown again. Role: `admin`.

    Args:
        body (CreateWebhookRequest): A webhook to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Webhook
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
