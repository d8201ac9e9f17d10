from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.goal import Goal
from ...models.goal_request import GoalRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: GoalRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/admin/goals",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Goal | Problem | None:
    if response.status_code == 201:
        response_201 = Goal.from_dict(response.json())

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
) -> Response[Goal | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: GoalRequest,
) -> Response[Goal | Problem]:
    """Create a goal

     Creates a goal: a target each player in scope (`personal`) or each group it names (`class`) reaches
    within a day or an ISO week (Monday to Monday) in `time_zone`, counting `completions`, `points`,
    `correct` answers or `perfect` completions (every answer right). A completion counts once (a replay
    adds nothing) if it was played from the goal's creation on and before its end, is recorded while the
    goal is not paused, and only while its period is open: the period it was played in, until that
    period's end plus the close grace. A class goal's progress is its group's: each completion posted
    for one of its groups adds to that group's progress (one posted for two of them, to both). The
    completion that takes the progress to the target reaches the goal: `goal.completed` is written once
    per player (or group) and period, however many replicas record at once. Progress shows in completion
    answers (`goals`), profiles (`goals`) and, for class goals, `GET /v1/groups/{group}/goals` and the
    classroom display of board `group:<group>`. Goals cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Goals.

    Args:
        body (GoalRequest): A new goal. Its days and weeks are cut in `time_zone`. A `class`
            goal's `scope` lists groups, each of which keeps its own progress (the schema's
            `if`/`then`): a class goal of `global` or a topic is refused (400, field `scope`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Goal | Problem]
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
    body: GoalRequest,
) -> Goal | Problem | None:
    """Create a goal

     Creates a goal: a target each player in scope (`personal`) or each group it names (`class`) reaches
    within a day or an ISO week (Monday to Monday) in `time_zone`, counting `completions`, `points`,
    `correct` answers or `perfect` completions (every answer right). A completion counts once (a replay
    adds nothing) if it was played from the goal's creation on and before its end, is recorded while the
    goal is not paused, and only while its period is open: the period it was played in, until that
    period's end plus the close grace. A class goal's progress is its group's: each completion posted
    for one of its groups adds to that group's progress (one posted for two of them, to both). The
    completion that takes the progress to the target reaches the goal: `goal.completed` is written once
    per player (or group) and period, however many replicas record at once. Progress shows in completion
    answers (`goals`), profiles (`goals`) and, for class goals, `GET /v1/groups/{group}/goals` and the
    classroom display of board `group:<group>`. Goals cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Goals.

    Args:
        body (GoalRequest): A new goal. Its days and weeks are cut in `time_zone`. A `class`
            goal's `scope` lists groups, each of which keeps its own progress (the schema's
            `if`/`then`): a class goal of `global` or a topic is refused (400, field `scope`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Goal | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: GoalRequest,
) -> Response[Goal | Problem]:
    """Create a goal

     Creates a goal: a target each player in scope (`personal`) or each group it names (`class`) reaches
    within a day or an ISO week (Monday to Monday) in `time_zone`, counting `completions`, `points`,
    `correct` answers or `perfect` completions (every answer right). A completion counts once (a replay
    adds nothing) if it was played from the goal's creation on and before its end, is recorded while the
    goal is not paused, and only while its period is open: the period it was played in, until that
    period's end plus the close grace. A class goal's progress is its group's: each completion posted
    for one of its groups adds to that group's progress (one posted for two of them, to both). The
    completion that takes the progress to the target reaches the goal: `goal.completed` is written once
    per player (or group) and period, however many replicas record at once. Progress shows in completion
    answers (`goals`), profiles (`goals`) and, for class goals, `GET /v1/groups/{group}/goals` and the
    classroom display of board `group:<group>`. Goals cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Goals.

    Args:
        body (GoalRequest): A new goal. Its days and weeks are cut in `time_zone`. A `class`
            goal's `scope` lists groups, each of which keeps its own progress (the schema's
            `if`/`then`): a class goal of `global` or a topic is refused (400, field `scope`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Goal | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: GoalRequest,
) -> Goal | Problem | None:
    """Create a goal

     Creates a goal: a target each player in scope (`personal`) or each group it names (`class`) reaches
    within a day or an ISO week (Monday to Monday) in `time_zone`, counting `completions`, `points`,
    `correct` answers or `perfect` completions (every answer right). A completion counts once (a replay
    adds nothing) if it was played from the goal's creation on and before its end, is recorded while the
    goal is not paused, and only while its period is open: the period it was played in, until that
    period's end plus the close grace. A class goal's progress is its group's: each completion posted
    for one of its groups adds to that group's progress (one posted for two of them, to both). The
    completion that takes the progress to the target reaches the goal: `goal.completed` is written once
    per player (or group) and period, however many replicas record at once. Progress shows in completion
    answers (`goals`), profiles (`goals`) and, for class goals, `GET /v1/groups/{group}/goals` and the
    classroom display of board `group:<group>`. Goals cannot be edited; end one and create another.
    Role: `admin`. Rules: docs/RULES.md, Goals.

    Args:
        body (GoalRequest): A new goal. Its days and weeks are cut in `time_zone`. A `class`
            goal's `scope` lists groups, each of which keeps its own progress (the schema's
            `if`/`then`): a class goal of `global` or a topic is refused (400, field `scope`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Goal | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
