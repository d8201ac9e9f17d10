"""Podium's error model: every answer Podium (or a proxy in front of it) gives that is not a success is a `Problem`,
raised as a `PodiumError`.

- `Refused`: an answer a retry cannot change (400, 403, 404, 409, 413, 422, ...): fix the request.
- `AuthenticationFailed`: 401 (whatever its body: Podium's problem or a gateway's page), after the token supply was
  asked once for a fresh token: the credential is refused.
- `Unavailable`: Podium could not answer now (no network, 429, 408, a 5xx, or an answer that is not Podium's, such as
  a proxy's HTML error page or JSON that is not a problem document) and the attempts ran out: send it again later.
  `reason` says why.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx

Reason = Literal["offline", "rate_limited", "unavailable"]
"""Why Podium is unavailable: no answer at all, a rate limit (429), or an answer saying "not now" (5xx, 408, or a
page that is not Podium's)."""

RETRIED = frozenset({408, 429, 500, 502, 503, 504})
"""Statuses worth sending again: Podium did not take the request, or may have (a retry is then a replay)."""


@dataclass(frozen=True)
class FieldError:
    """One request field at fault, as a validation problem lists it."""

    field: str
    message: str


@dataclass(frozen=True)
class Problem:
    """An RFC 9457 problem: Podium's answer to a request it did not carry out, or one made from an answer that was not
    Podium's (a proxy's HTML page: `type` "about:blank", `title` the HTTP reason)."""

    type: str
    title: str
    status: int
    detail: str
    code: str | None = None
    retry_after: float | None = None
    """Seconds to wait before sending again, from the answer's `Retry-After` header."""
    errors: tuple[FieldError, ...] = ()
    request_id: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)
    """The problem document as Podium sent it (empty for an answer that was not Podium's)."""

    @classmethod
    def from_dict(cls, document: Mapping[str, Any], status: int, retry_after: float | None = None) -> Problem:
        """A problem from a problem document (an answer's body, or a batch item's `problem`). Read defensively: a
        member of the wrong type is left out (`status` then is the answer's), never an exception."""
        errors = tuple(FieldError(str(item.get("field", "")), str(item.get("message", "")))
                       for item in _list(document.get("errors")) if isinstance(item, Mapping))
        stated = document.get("status")
        return cls(type=str(document.get("type", "about:blank")), title=str(document.get("title", "")),
                   status=stated if isinstance(stated, int) and not isinstance(stated, bool) else status, detail=str(document.get("detail", "")),
                   code=_str_or_none(document.get("code")), retry_after=retry_after, errors=errors,
                   request_id=_str_or_none(document.get("request_id")), raw=dict(document))

    @classmethod
    def from_response(cls, response: httpx.Response) -> Problem:
        """The problem an answer carries: its problem document, or one describing an answer that was not Podium's."""
        retry_after = parse_retry_after(response.headers.get("Retry-After"))
        document = json_body(response)
        if is_problem_document(document):
            return cls.from_dict(document, response.status_code, retry_after)
        kind = response.headers.get("Content-Type", "").split(";")[0].strip() or "no content type"
        what = "an HTML page from a proxy" if kind == "text/html" else f"an answer of type {kind}"
        return cls(type="about:blank", title=response.reason_phrase or f"HTTP {response.status_code}",
                   status=response.status_code, detail=f"{what}, not Podium's answer", retry_after=retry_after)

    def __str__(self) -> str:
        """`409 Conflict: <detail> (<type>)`."""
        kind = "" if self.type == "about:blank" else f" ({self.type})"
        return f"{self.status} {self.title}: {self.detail}{kind}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _list(value: Any) -> list[Any] | tuple[Any, ...]:
    return value if isinstance(value, (list, tuple)) else ()


def is_problem_document(document: Any) -> bool:
    """Whether `document` (a parsed JSON body) is a problem document as Podium writes one: an object with a string
    `title` and an integer `status`. Any other JSON is not Podium's judgement (a gateway's or proxy's own JSON)."""
    return isinstance(document, Mapping) and isinstance(document.get("title"), str) and _is_int(document.get("status"))


def json_body(response: httpx.Response) -> Any:
    """The answer's JSON body, or None when it has none (a proxy's HTML page, an empty body)."""
    if "json" not in response.headers.get("Content-Type", ""):
        return None
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def parse_retry_after(value: str | None) -> float | None:
    """`Retry-After` in seconds: delay-seconds, or an HTTP date counted from now; None when absent or unreadable."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class PodiumError(Exception):
    """Base of the errors the client raises; `problem` is what Podium (or the proxy) answered, None when nothing
    answered."""

    problem: Problem | None

    def __init__(self, message: str, problem: Problem | None) -> None:
        super().__init__(message)
        self.problem = problem

    @property
    def status(self) -> int | None:
        """The answer's HTTP status; None when nothing answered."""
        return self.problem.status if self.problem is not None else None


class Refused(PodiumError):
    """Podium refused the request and a retry cannot change that (400, 403, 404, 409, 413, 422, ...)."""

    problem: Problem

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem), problem)


class AuthenticationFailed(PodiumError):
    """401: the credential was refused, after the token supply was asked once for a fresh token. Never "offline": a
    player must sign in again, or the backend's key was revoked or expired."""

    problem: Problem

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem), problem)


class Unavailable(PodiumError):
    """Podium could not answer now and the attempts (or the deadline) ran out: send the same request again later.

    `reason` is "offline" (no answer at all: no network, a refused or dropped connection, a timeout), "rate_limited"
    (429: wait `retry_after` seconds) or "unavailable" (a 5xx or 408, or an answer that was not Podium's, such as a
    proxy's HTML error page).
    """

    def __init__(self, reason: Reason, problem: Problem | None, message: str) -> None:
        super().__init__(message, problem)
        self.reason: Reason = reason
        self.completion: dict[str, Any] | None = None
        """For `record`: the completion exactly as it was sent (its `completed_at` stamped before the first attempt),
        to queue as it is (`OfflineQueue.add(error.completion)`): if Podium recorded it and the answer was lost, the
        queue's sync is answered with a replay, not a conflict. None for other calls."""

    @property
    def retry_after(self) -> float | None:
        """Seconds Podium asked to wait (`Retry-After`), when it said."""
        return self.problem.retry_after if self.problem is not None else None

    @classmethod
    def offline(cls, error: Exception) -> Unavailable:
        """Nothing answered: `error` is the network's."""
        return cls("offline", None, f"Podium could not be reached: {str(error) or type(error).__name__} (offline)")

    @classmethod
    def unreadable(cls, error: Exception) -> Unavailable:
        """An answer came but could not be read (a body that does not decode, too many redirects, a success whose
        JSON is not the expected shape): "unavailable", send it again later."""
        return cls("unavailable", None, f"Podium's answer could not be read: {str(error) or type(error).__name__}")

    @classmethod
    def answered(cls, problem: Problem) -> Unavailable:
        """An answer saying "not now": a 429, a 408 or 5xx, or a page that was not Podium's."""
        reason: Reason = "rate_limited" if problem.status == 429 else "unavailable"
        return cls(reason, problem, str(problem))


def classify(response: httpx.Response) -> Any:
    """The JSON body of a successful answer from Podium; otherwise raises the `PodiumError` the answer means.

    A 401 is `AuthenticationFailed` whatever its body (Podium's problem or a gateway's page): the token supply was
    already asked once for a fresh token (`BearerToken`), and a refused credential is never reported as unavailable.
    Any other answer that is not a problem document (an HTML page, an empty body, JSON that is not a problem) is
    `Unavailable`: Podium did not judge the request."""
    if response.status_code == 401:
        raise AuthenticationFailed(Problem.from_response(response))
    body = json_body(response)
    if response.is_success and body is not None:
        return body
    problem = Problem.from_response(response)
    if response.is_success or response.status_code in RETRIED or not is_problem_document(body):
        raise Unavailable.answered(problem)
    raise Refused(problem)
