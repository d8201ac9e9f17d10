from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_page import EventPage
from ...models.event_type import EventType
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: str | Unset = UNSET,
    limit: int | Unset = 100,
    type_: EventType | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_

    params["type"] = json_type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EventPage | Problem | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())

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
) -> Response[EventPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    after: str | Unset = UNSET,
    limit: int | Unset = 100,
    type_: EventType | Unset = UNSET,
) -> Response[EventPage | Problem]:
    """The event feed

     Everything Podium records, as a feed to poll: `completion.recorded`, `level.reached`,
    `achievement.unlocked`, `period.closed`, `medal.awarded`, `reminder.due`, the league moves
    (`league.promoted`, `league.relegated`, `league.stayed`) and `goal.completed`. Each event is written
    in the same transaction as the change it reports, so the feed holds exactly the committed changes.
    Start without `after` (from the oldest event kept; events are pruned after 90 days by default), then
    poll with `after` set to the `next_cursor` of the previous answer. The order is stable and the feed
    has no gaps or repeats: an event is shown only once no transaction that could still commit before it
    is running, so nothing ever appears behind a cursor already handed out. Every answer has a
    `next_cursor`: the last event's when the page is full, else a position past every event the answer
    has considered (so a poll filtered by `type` moves past the other types instead of reading them
    again); poll again with it later. Store the cursor with what you did with the events; if you resume
    from an older cursor, deduplicate on `id`. With `type`, only events of that type are listed. Role:
    `read`. Keys limited to boards cannot read the feed.

    Args:
        after (str | Unset):
        limit (int | Unset):  Default: 100.
        type_ (EventType | Unset): Kind of event: a completion was recorded, a player reached a
            level or unlocked an achievement, a period closed, a medal was awarded, a reminder is due.
            `league.promoted`, `league.relegated` and `league.stayed`: a league week's close moved a
            player (data: `user_id`, `league`, `period`, `board`, `tier`, `next_tier`, `rank`,
            `score`). `goal.completed`: a player (personal goal) or a group (class goal) reached a
            goal's target, once per player or group and period (data: `goal`, `title`, `kind`,
            `user_id` or `group`, `period`, `window`, `target`, `progress`, `completion_id` for a
            personal goal, `completed_at`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        type_=type_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    after: str | Unset = UNSET,
    limit: int | Unset = 100,
    type_: EventType | Unset = UNSET,
) -> EventPage | Problem | None:
    """The event feed

     Everything Podium records, as a feed to poll: `completion.recorded`, `level.reached`,
    `achievement.unlocked`, `period.closed`, `medal.awarded`, `reminder.due`, the league moves
    (`league.promoted`, `league.relegated`, `league.stayed`) and `goal.completed`. Each event is written
    in the same transaction as the change it reports, so the feed holds exactly the committed changes.
    Start without `after` (from the oldest event kept; events are pruned after 90 days by default), then
    poll with `after` set to the `next_cursor` of the previous answer. The order is stable and the feed
    has no gaps or repeats: an event is shown only once no transaction that could still commit before it
    is running, so nothing ever appears behind a cursor already handed out. Every answer has a
    `next_cursor`: the last event's when the page is full, else a position past every event the answer
    has considered (so a poll filtered by `type` moves past the other types instead of reading them
    again); poll again with it later. Store the cursor with what you did with the events; if you resume
    from an older cursor, deduplicate on `id`. With `type`, only events of that type are listed. Role:
    `read`. Keys limited to boards cannot read the feed.

    Args:
        after (str | Unset):
        limit (int | Unset):  Default: 100.
        type_ (EventType | Unset): Kind of event: a completion was recorded, a player reached a
            level or unlocked an achievement, a period closed, a medal was awarded, a reminder is due.
            `league.promoted`, `league.relegated` and `league.stayed`: a league week's close moved a
            player (data: `user_id`, `league`, `period`, `board`, `tier`, `next_tier`, `rank`,
            `score`). `goal.completed`: a player (personal goal) or a group (class goal) reached a
            goal's target, once per player or group and period (data: `goal`, `title`, `kind`,
            `user_id` or `group`, `period`, `window`, `target`, `progress`, `completion_id` for a
            personal goal, `completed_at`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return sync_detailed(
        client=client,
        after=after,
        limit=limit,
        type_=type_,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    after: str | Unset = UNSET,
    limit: int | Unset = 100,
    type_: EventType | Unset = UNSET,
) -> Response[EventPage | Problem]:
    """The event feed

     Everything Podium records, as a feed to poll: `completion.recorded`, `level.reached`,
    `achievement.unlocked`, `period.closed`, `medal.awarded`, `reminder.due`, the league moves
    (`league.promoted`, `league.relegated`, `league.stayed`) and `goal.completed`. Each event is written
    in the same transaction as the change it reports, so the feed holds exactly the committed changes.
    Start without `after` (from the oldest event kept; events are pruned after 90 days by default), then
    poll with `after` set to the `next_cursor` of the previous answer. The order is stable and the feed
    has no gaps or repeats: an event is shown only once no transaction that could still commit before it
    is running, so nothing ever appears behind a cursor already handed out. Every answer has a
    `next_cursor`: the last event's when the page is full, else a position past every event the answer
    has considered (so a poll filtered by `type` moves past the other types instead of reading them
    again); poll again with it later. Store the cursor with what you did with the events; if you resume
    from an older cursor, deduplicate on `id`. With `type`, only events of that type are listed. Role:
    `read`. Keys limited to boards cannot read the feed.

    Args:
        after (str | Unset):
        limit (int | Unset):  Default: 100.
        type_ (EventType | Unset): Kind of event: a completion was recorded, a player reached a
            level or unlocked an achievement, a period closed, a medal was awarded, a reminder is due.
            `league.promoted`, `league.relegated` and `league.stayed`: a league week's close moved a
            player (data: `user_id`, `league`, `period`, `board`, `tier`, `next_tier`, `rank`,
            `score`). `goal.completed`: a player (personal goal) or a group (class goal) reached a
            goal's target, once per player or group and period (data: `goal`, `title`, `kind`,
            `user_id` or `group`, `period`, `window`, `target`, `progress`, `completion_id` for a
            personal goal, `completed_at`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        type_=type_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    after: str | Unset = UNSET,
    limit: int | Unset = 100,
    type_: EventType | Unset = UNSET,
) -> EventPage | Problem | None:
    """The event feed

     Everything Podium records, as a feed to poll: `completion.recorded`, `level.reached`,
    `achievement.unlocked`, `period.closed`, `medal.awarded`, `reminder.due`, the league moves
    (`league.promoted`, `league.relegated`, `league.stayed`) and `goal.completed`. Each event is written
    in the same transaction as the change it reports, so the feed holds exactly the committed changes.
    Start without `after` (from the oldest event kept; events are pruned after 90 days by default), then
    poll with `after` set to the `next_cursor` of the previous answer. The order is stable and the feed
    has no gaps or repeats: an event is shown only once no transaction that could still commit before it
    is running, so nothing ever appears behind a cursor already handed out. Every answer has a
    `next_cursor`: the last event's when the page is full, else a position past every event the answer
    has considered (so a poll filtered by `type` moves past the other types instead of reading them
    again); poll again with it later. Store the cursor with what you did with the events; if you resume
    from an older cursor, deduplicate on `id`. With `type`, only events of that type are listed. Role:
    `read`. Keys limited to boards cannot read the feed.

    Args:
        after (str | Unset):
        limit (int | Unset):  Default: 100.
        type_ (EventType | Unset): Kind of event: a completion was recorded, a player reached a
            level or unlocked an achievement, a period closed, a medal was awarded, a reminder is due.
            `league.promoted`, `league.relegated` and `league.stayed`: a league week's close moved a
            player (data: `user_id`, `league`, `period`, `board`, `tier`, `next_tier`, `rank`,
            `score`). `goal.completed`: a player (personal goal) or a group (class goal) reached a
            goal's target, once per player or group and period (data: `goal`, `title`, `kind`,
            `user_id` or `group`, `period`, `window`, `target`, `progress`, `completion_id` for a
            personal goal, `completed_at`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            limit=limit,
            type_=type_,
        )
    ).parsed
