from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard_window import LeaderboardWindow
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    board: str,
    window: LeaderboardWindow,
    *,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    refresh: float | Unset = 2.0,
    page_seconds: float | Unset = 10.0,
    title: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["period"] = period

    params["limit"] = limit

    params["refresh"] = refresh

    params["page_seconds"] = page_seconds

    params["title"] = title

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/display/{board}/{window}".format(
            board=quote(str(board), safe=""),
            window=quote(str(window), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient | Client,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    refresh: float | Unset = 2.0,
    page_seconds: float | Unset = 10.0,
    title: str | Unset = UNSET,
) -> Response[Problem | str]:
    """An HTML leaderboard display

     A page for a screen in a classroom or a hall: it shows the top entries of the board period, with the
    top three marked by place and colour, medals by word and colour, the period as dates, when it last
    updated and whether it is stale; for a contest run, a countdown to its end and its class totals. On
    a landscape screen at least 900 px wide it sizes the rows to fill the screen (two columns beyond 12
    rows, names never cut) and, when even the smallest legible size cannot hold them, turns pages on a
    timer with a page indicator; on a phone it keeps one column and shows a long name whole when its row
    is tapped. Rows that move slide to their place and a new leader is announced (without motion when
    the viewer prefers reduced motion). It listens to `GET /v1/leaderboards/{board}/{window}/live` and
    polls the page with `If-None-Match` only while the stream is down or not live. The page holds no
    data, so it is served without a key; when leaderboards are not public, give it a read or display key
    in the address's fragment (`/display/global/week#key=<key>`), which browsers never send to a server;
    a display key's creation answers this link as `display_url`. Query: `period` (as for the page),
    `limit` (1-100, default 10), `refresh` (seconds between polls while not live, default 2, 1 to 3600),
    `page_seconds` (seconds each page shows when the rows need pages, default 10, 3 to 600), `title`
    (the heading; by default a name made from the board: Everyone, Math, Class 4b). A bad address is
    answered with a page that explains it when a browser asks (`Accept: text/html`), else with
    problem+json; a key that is wrong or revoked is explained on the page in a teacher's words.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        refresh (float | Unset):  Default: 2.0.
        page_seconds (float | Unset):  Default: 10.0.
        title (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
        refresh=refresh,
        page_seconds=page_seconds,
        title=title,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient | Client,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    refresh: float | Unset = 2.0,
    page_seconds: float | Unset = 10.0,
    title: str | Unset = UNSET,
) -> Problem | str | None:
    """An HTML leaderboard display

     A page for a screen in a classroom or a hall: it shows the top entries of the board period, with the
    top three marked by place and colour, medals by word and colour, the period as dates, when it last
    updated and whether it is stale; for a contest run, a countdown to its end and its class totals. On
    a landscape screen at least 900 px wide it sizes the rows to fill the screen (two columns beyond 12
    rows, names never cut) and, when even the smallest legible size cannot hold them, turns pages on a
    timer with a page indicator; on a phone it keeps one column and shows a long name whole when its row
    is tapped. Rows that move slide to their place and a new leader is announced (without motion when
    the viewer prefers reduced motion). It listens to `GET /v1/leaderboards/{board}/{window}/live` and
    polls the page with `If-None-Match` only while the stream is down or not live. The page holds no
    data, so it is served without a key; when leaderboards are not public, give it a read or display key
    in the address's fragment (`/display/global/week#key=<key>`), which browsers never send to a server;
    a display key's creation answers this link as `display_url`. Query: `period` (as for the page),
    `limit` (1-100, default 10), `refresh` (seconds between polls while not live, default 2, 1 to 3600),
    `page_seconds` (seconds each page shows when the rows need pages, default 10, 3 to 600), `title`
    (the heading; by default a name made from the board: Everyone, Math, Class 4b). A bad address is
    answered with a page that explains it when a browser asks (`Accept: text/html`), else with
    problem+json; a key that is wrong or revoked is explained on the page in a teacher's words.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        refresh (float | Unset):  Default: 2.0.
        page_seconds (float | Unset):  Default: 10.0.
        title (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        board=board,
        window=window,
        client=client,
        period=period,
        limit=limit,
        refresh=refresh,
        page_seconds=page_seconds,
        title=title,
    ).parsed


async def asyncio_detailed(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient | Client,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    refresh: float | Unset = 2.0,
    page_seconds: float | Unset = 10.0,
    title: str | Unset = UNSET,
) -> Response[Problem | str]:
    """An HTML leaderboard display

     A page for a screen in a classroom or a hall: it shows the top entries of the board period, with the
    top three marked by place and colour, medals by word and colour, the period as dates, when it last
    updated and whether it is stale; for a contest run, a countdown to its end and its class totals. On
    a landscape screen at least 900 px wide it sizes the rows to fill the screen (two columns beyond 12
    rows, names never cut) and, when even the smallest legible size cannot hold them, turns pages on a
    timer with a page indicator; on a phone it keeps one column and shows a long name whole when its row
    is tapped. Rows that move slide to their place and a new leader is announced (without motion when
    the viewer prefers reduced motion). It listens to `GET /v1/leaderboards/{board}/{window}/live` and
    polls the page with `If-None-Match` only while the stream is down or not live. The page holds no
    data, so it is served without a key; when leaderboards are not public, give it a read or display key
    in the address's fragment (`/display/global/week#key=<key>`), which browsers never send to a server;
    a display key's creation answers this link as `display_url`. Query: `period` (as for the page),
    `limit` (1-100, default 10), `refresh` (seconds between polls while not live, default 2, 1 to 3600),
    `page_seconds` (seconds each page shows when the rows need pages, default 10, 3 to 600), `title`
    (the heading; by default a name made from the board: Everyone, Math, Class 4b). A bad address is
    answered with a page that explains it when a browser asks (`Accept: text/html`), else with
    problem+json; a key that is wrong or revoked is explained on the page in a teacher's words.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        refresh (float | Unset):  Default: 2.0.
        page_seconds (float | Unset):  Default: 10.0.
        title (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        board=board,
        window=window,
        period=period,
        limit=limit,
        refresh=refresh,
        page_seconds=page_seconds,
        title=title,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    board: str,
    window: LeaderboardWindow,
    *,
    client: AuthenticatedClient | Client,
    period: str | Unset = UNSET,
    limit: int | Unset = 10,
    refresh: float | Unset = 2.0,
    page_seconds: float | Unset = 10.0,
    title: str | Unset = UNSET,
) -> Problem | str | None:
    """An HTML leaderboard display

     A page for a screen in a classroom or a hall: it shows the top entries of the board period, with the
    top three marked by place and colour, medals by word and colour, the period as dates, when it last
    updated and whether it is stale; for a contest run, a countdown to its end and its class totals. On
    a landscape screen at least 900 px wide it sizes the rows to fill the screen (two columns beyond 12
    rows, names never cut) and, when even the smallest legible size cannot hold them, turns pages on a
    timer with a page indicator; on a phone it keeps one column and shows a long name whole when its row
    is tapped. Rows that move slide to their place and a new leader is announced (without motion when
    the viewer prefers reduced motion). It listens to `GET /v1/leaderboards/{board}/{window}/live` and
    polls the page with `If-None-Match` only while the stream is down or not live. The page holds no
    data, so it is served without a key; when leaderboards are not public, give it a read or display key
    in the address's fragment (`/display/global/week#key=<key>`), which browsers never send to a server;
    a display key's creation answers this link as `display_url`. Query: `period` (as for the page),
    `limit` (1-100, default 10), `refresh` (seconds between polls while not live, default 2, 1 to 3600),
    `page_seconds` (seconds each page shows when the rows need pages, default 10, 3 to 600), `title`
    (the heading; by default a name made from the board: Everyone, Math, Class 4b). A bad address is
    answered with a page that explains it when a browser asks (`Accept: text/html`), else with
    problem+json; a key that is wrong or revoked is explained on the page in a teacher's words.

    Args:
        board (str):
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO,
            from Monday) and `month` are cut in the board's time zone; `contest` is the one window of
            a contest's board, whose periods are the contest's runs.
        period (str | Unset):
        limit (int | Unset):  Default: 10.
        refresh (float | Unset):  Default: 2.0.
        page_seconds (float | Unset):  Default: 10.0.
        title (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            board=board,
            window=window,
            client=client,
            period=period,
            limit=limit,
            refresh=refresh,
            page_seconds=page_seconds,
            title=title,
        )
    ).parsed
