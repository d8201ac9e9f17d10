"""`Podium` and `AsyncPodium`: the API in its own words, with a token supply, retries that never count a completion
twice, and errors raised (`podium.errors`) instead of returned."""

from __future__ import annotations

import asyncio
import datetime
import inspect
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator, Mapping
from typing import Any, TypeVar
from urllib.parse import quote

import httpx

from podium_client import AuthenticatedClient
from podium_client.models import CompletionResponse, LeaderboardPage, UserProfile

from .completions import completion_body
from .errors import Unavailable, classify

_Model = TypeVar("_Model")

TokenSupply = Callable[[bool], str]
"""`token(refresh)`: the credential to send; called with True once after a 401, for a fresh one."""
AsyncTokenSupply = Callable[[bool], str | Awaitable[str]]
"""As `TokenSupply`, and it may be a coroutine function."""


class BearerToken(httpx.Auth):
    """Sends `Authorization: Bearer <token(False)>`; after a 401 asks `token(True)` once and sends the request again.
    A plain string is never refreshed (an API key: a 401 means it was revoked or expired). The request's body is read
    first, so that it can be sent again."""

    def __init__(self, token: str | AsyncTokenSupply) -> None:
        self.token = token

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """The flow for `httpx.Client`: a supply that returns an awaitable belongs to `AsyncPodium`."""
        request.read()
        response = yield self._signed(request, self._sync_token(False))
        if response.status_code == 401 and callable(self.token):
            yield self._signed(request, self._sync_token(True))

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        """The flow for `httpx.AsyncClient`: the supply may be a coroutine function."""
        await request.aread()
        response = yield self._signed(request, await self._async_token(False))
        if response.status_code == 401 and callable(self.token):
            yield self._signed(request, await self._async_token(True))

    def _sync_token(self, refresh: bool) -> str:
        token = self.token(refresh) if callable(self.token) else self.token
        if not isinstance(token, str):
            raise TypeError("the token supply returned an awaitable: use AsyncPodium for a coroutine supply")
        return token

    async def _async_token(self, refresh: bool) -> str:
        token = self.token(refresh) if callable(self.token) else self.token
        return await token if inspect.isawaitable(token) else token

    @staticmethod
    def _signed(request: httpx.Request, token: str) -> httpx.Request:
        request.headers["Authorization"] = f"Bearer {token}"
        return request


class _Retrying:
    """What both clients share: the routes, how long to try, and how long to wait between attempts."""

    def __init__(self, base_url: str, timeout: float, deadline: float, backoff: float,
                 clock: Callable[[], float]) -> None:
        if timeout <= 0 or deadline <= 0:
            raise ValueError("timeout and deadline are seconds, more than 0")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.deadline = deadline
        self.backoff = backoff
        self.clock = clock

    def _wait(self, failure: Unavailable, attempt: int, started: float) -> float | None:
        """Seconds to wait before the next attempt, or None when the deadline would pass first."""
        wait = failure.retry_after if failure.retry_after is not None else self.backoff * 2 ** attempt
        return wait if self.clock() - started + wait < self.deadline else None

    def _attempt_timeout(self, started: float) -> float:
        """One attempt's httpx timeout (each phase: connect, each read, each write, the pool): `timeout`, cut to what
        is left of the deadline."""
        return max(0.05, min(self.timeout, self.deadline - (self.clock() - started)))

    @staticmethod
    def _record_request(completion: Mapping[str, Any]) -> dict[str, Any]:
        """The request for `completion`, made once: without `completed_at` it is stamped now (UTC), so every attempt,
        and the completion an `Unavailable` carries, is the same body."""
        body = completion_body(completion, now=datetime.datetime.now(datetime.timezone.utc))
        return {"method": "POST", "url": "/v1/completions", "json": body}

    @staticmethod
    def _parsed(model: Callable[[Any], _Model], body: Any) -> _Model:
        """`body` as `model` (a generated model's `from_dict`); a success whose JSON is not of its shape (not Podium's
        answer) is `Unavailable`, never a KeyError or TypeError."""
        try:
            return model(body)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise Unavailable.unreadable(error) from error

    @staticmethod
    def _profile_request(user_id: str) -> dict[str, Any]:
        return {"method": "GET", "url": f"/v1/users/{quote(user_id, safe='')}"}

    @staticmethod
    def _page_request(board: str, window: str, params: dict[str, Any]) -> dict[str, Any]:
        path = f"/v1/leaderboards/{quote(board, safe='')}/{quote(window, safe='')}"
        return {"method": "GET", "url": path, "params": {k: v for k, v in params.items() if v is not None}}


class Podium(_Retrying):
    """A client of the Podium at `base_url`.

    `token` is an API key or a player token (a string), or a supply `token(refresh) -> str` that is asked for the
    token each request sends and, once after a 401, for a fresh one. Every call is tried again after a network error,
    a 429 (waiting its `Retry-After`), a 408 or 5xx, or an answer that is not Podium's (a proxy's HTML page), while
    `deadline` seconds allow: no attempt starts, and no wait is waited, that would end past it; it then raises
    `Unavailable`. `timeout` is httpx's per phase, not per attempt: connecting, each read of the answer, each write,
    and waiting for a pooled connection each may take up to `timeout` (cut to what is left of the deadline when the
    attempt starts); an answer trickling in slower than that is cut, one trickling faster is read to its end. A
    completion is sent again with the same id and body, so Podium answers a retry of one it recorded as a replay: it
    counts once. Raises `Refused` (400, 403, 404, 409, 422, ...) and `AuthenticationFailed` (401, whatever its body)
    at once. `sleep` and `clock` (monotonic seconds) are injectable, for tests.

    `api` is the generated client (`podium_client`) over the same connection and token, for every other route.
    """

    def __init__(self, base_url: str, token: str | TokenSupply, *, timeout: float = 5.0, deadline: float = 15.0,
                 backoff: float = 0.5, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic, httpx_args: Mapping[str, Any] | None = None) -> None:
        super().__init__(base_url, timeout, deadline, backoff, clock)
        self.sleep = sleep
        self.http = httpx.Client(base_url=self.base_url, auth=BearerToken(token), timeout=timeout,
                                 **dict(httpx_args or {}))
        self.api = AuthenticatedClient(base_url=self.base_url, token="").set_httpx_client(self.http)

    def record(self, completion: Mapping[str, Any]) -> CompletionResponse:
        """Records `completion` (a dict with the API's keys: id, user_id, quiz_id, topic, difficulty, correct, total,
        and optionally duration_ms, completed_at (a datetime or an ISO 8601 string: when the quiz was finished),
        groups, display_name). Returns Podium's answer: new (201) or the replay of the same completion (200).

        Without `completed_at` the completion is stamped with the current UTC time once, before the first attempt, so
        every attempt sends the same body. `Unavailable` carries that body as `completion`: queue it as it is
        (`OfflineQueue.add(error.completion)`)."""
        request = self._record_request(completion)
        try:
            return self._parsed(CompletionResponse.from_dict, self._call(request))
        except Unavailable as failure:
            failure.completion = dict(request["json"])
            raise

    def profile(self, user_id: str) -> UserProfile:
        """The player's profile: points, level, statistics, streak, medals, ranks."""
        return self._parsed(UserProfile.from_dict, self._call(self._profile_request(user_id)))

    def leaderboard(self, board: str, window: str = "week", *, limit: int = 10, offset: int = 0,
                    period: str | None = None) -> LeaderboardPage:
        """A page of `board` (`global`, `topic:math`, `group:class-4b`, ...) in `window` (all, day, week, month):
        `limit` entries from `offset`, of the current period or `period`."""
        params = {"limit": limit, "offset": offset, "period": period}
        return self._parsed(LeaderboardPage.from_dict, self._call(self._page_request(board, window, params)))

    def around(self, board: str, window: str, user_id: str, *, radius: int = 5) -> LeaderboardPage:
        """The `radius` entries either side of `user_id` on `board` in `window`."""
        params = {"around": user_id, "radius": radius}
        return self._parsed(LeaderboardPage.from_dict, self._call(self._page_request(board, window, params)))

    def close(self) -> None:
        """Closes the connections."""
        self.http.close()

    def __enter__(self) -> Podium:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def send_once(self, request: Mapping[str, Any], started: float | None = None) -> Any:
        """Sends `request` (method, url: a path, json or params) once: the answer's JSON, or raises a `PodiumError`."""
        timeout = self._attempt_timeout(self.clock() if started is None else started)
        try:
            response = self.http.request(timeout=timeout, **request)
        except httpx.TransportError as error:
            raise Unavailable.offline(error) from error
        except httpx.RequestError as error:  # an answer that could not be read: DecodingError, TooManyRedirects
            raise Unavailable.unreadable(error) from error
        return classify(response)

    def _call(self, request: Mapping[str, Any]) -> Any:
        started = self.clock()
        attempt = 0
        while True:
            try:
                return self.send_once(request, started)
            except Unavailable as failure:
                wait = self._wait(failure, attempt, started)
                if wait is None:
                    raise
            self.sleep(wait)
            attempt += 1


class AsyncPodium(_Retrying):
    """`Podium` over `httpx.AsyncClient`: the same methods, awaited. The token supply may be a coroutine function;
    `sleep` is awaited between attempts. `api` is the generated client for its `asyncio` calls."""

    def __init__(self, base_url: str, token: str | AsyncTokenSupply, *, timeout: float = 5.0,
                 deadline: float = 15.0, backoff: float = 0.5,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 clock: Callable[[], float] = time.monotonic, httpx_args: Mapping[str, Any] | None = None) -> None:
        super().__init__(base_url, timeout, deadline, backoff, clock)
        self.sleep = sleep
        self.http = httpx.AsyncClient(base_url=self.base_url, auth=BearerToken(token), timeout=timeout,
                                      **dict(httpx_args or {}))
        self.api = AuthenticatedClient(base_url=self.base_url, token="").set_async_httpx_client(self.http)

    async def record(self, completion: Mapping[str, Any]) -> CompletionResponse:
        """As `Podium.record`."""
        request = self._record_request(completion)
        try:
            return self._parsed(CompletionResponse.from_dict, await self._call(request))
        except Unavailable as failure:
            failure.completion = dict(request["json"])
            raise

    async def profile(self, user_id: str) -> UserProfile:
        """As `Podium.profile`."""
        return self._parsed(UserProfile.from_dict, await self._call(self._profile_request(user_id)))

    async def leaderboard(self, board: str, window: str = "week", *, limit: int = 10, offset: int = 0,
                          period: str | None = None) -> LeaderboardPage:
        """As `Podium.leaderboard`."""
        params = {"limit": limit, "offset": offset, "period": period}
        return self._parsed(LeaderboardPage.from_dict,
                            await self._call(self._page_request(board, window, params)))

    async def around(self, board: str, window: str, user_id: str, *, radius: int = 5) -> LeaderboardPage:
        """As `Podium.around`."""
        params = {"around": user_id, "radius": radius}
        return self._parsed(LeaderboardPage.from_dict,
                            await self._call(self._page_request(board, window, params)))

    async def aclose(self) -> None:
        """Closes the connections."""
        await self.http.aclose()

    async def __aenter__(self) -> AsyncPodium:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def send_once(self, request: Mapping[str, Any], started: float | None = None) -> Any:
        """As `Podium.send_once`."""
        timeout = self._attempt_timeout(self.clock() if started is None else started)
        try:
            response = await self.http.request(timeout=timeout, **request)
        except httpx.TransportError as error:
            raise Unavailable.offline(error) from error
        except httpx.RequestError as error:  # an answer that could not be read: DecodingError, TooManyRedirects
            raise Unavailable.unreadable(error) from error
        return classify(response)

    async def _call(self, request: Mapping[str, Any]) -> Any:
        started = self.clock()
        attempt = 0
        while True:
            try:
                return await self.send_once(request, started)
            except Unavailable as failure:
                wait = self._wait(failure, attempt, started)
                if wait is None:
                    raise
            await self.sleep(wait)
            attempt += 1


__all__ = ["AsyncPodium", "AsyncTokenSupply", "BearerToken", "Podium", "TokenSupply"]
