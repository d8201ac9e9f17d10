"""A completion as the layer takes it: a dict with the API's snake_case keys, checked before anything is sent or queued,
so a mistake is a `ValueError` naming the field, never a `KeyError` or a batch refused whole."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

REQUIRED = ("id", "user_id", "quiz_id", "topic", "difficulty", "correct", "total")
"""The keys every completion has (snake_case, as the API names them)."""
OPTIONAL = ("duration_ms", "completed_at", "groups", "display_name")
"""The keys a completion may have besides `REQUIRED`; None stands for absent."""
DIFFICULTIES = ("easy", "medium", "hard")
"""The values `difficulty` takes."""


class InvalidCompletion(ValueError):
    """The completion cannot be sent as it is: a field is missing, unknown or of the wrong type (the message names
    it). Podium's own checks (patterns, ranges) answer later, as `Refused` (400)."""


def iso_instant(value: datetime.datetime) -> str:
    """`value` (with a time zone) as the RFC 3339 UTC instant Podium takes, to the millisecond."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidCompletion("completed_at: a datetime needs a time zone (datetime.now(timezone.utc))")
    return value.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _completed_at(value: Any) -> str | None:
    """`completed_at` as Podium takes it: None, or the RFC 3339 UTC instant of a datetime or an ISO 8601 string with
    its offset (`datetime.fromisoformat`'s forms, re-written as `iso_instant` writes them)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.datetime.fromisoformat(value)
        except ValueError:
            raise InvalidCompletion(f"completed_at: {value!r} is not an ISO 8601 time") from None
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidCompletion(f"completed_at: {value.isoformat()!r} has no offset (add Z or +02:00)")
    if isinstance(value, datetime.datetime):
        return iso_instant(value)
    raise InvalidCompletion(f"completed_at: {value!r} is neither a datetime nor an ISO 8601 time with its offset")


TYPES: dict[str, tuple[type[Any], ...]] = {
    "id": (str,), "user_id": (str,), "quiz_id": (str,), "topic": (str,), "difficulty": (str,), "correct": (int,),
    "total": (int,), "duration_ms": (int,), "groups": (list, tuple), "display_name": (str,)}
"""The Python types each key takes (`completed_at`: a datetime or an ISO 8601 string, checked on its own); a bool is
never an int here."""


def _check_type(name: str, value: Any) -> None:
    if value is None and name in OPTIONAL:
        return
    wanted = TYPES[name]
    if isinstance(value, bool) or not isinstance(value, wanted):
        raise InvalidCompletion(f"{name}: {value!r} is not of type {wanted[0].__name__}")
    if name == "groups" and not all(isinstance(group, str) for group in value):
        raise InvalidCompletion(f"groups: {value!r} is not a list of strings")
    if name == "difficulty" and value not in DIFFICULTIES:
        raise InvalidCompletion(f"difficulty: {value!r} is not one of {', '.join(DIFFICULTIES)}")


def completion_body(completion: Mapping[str, Any], now: datetime.datetime | None = None) -> dict[str, Any]:
    """The JSON body for `completion`, checked: `completed_at` may be a datetime or an ISO 8601 string. With `now`,
    a completion without `completed_at` gets that time (a queued completion keeps when it was played)."""
    if not isinstance(completion, Mapping):
        raise InvalidCompletion(f"a completion is a dict, not {type(completion).__name__}")
    unknown = sorted(set(completion) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise InvalidCompletion(f"unknown field {unknown[0]!r} (the API's names: {', '.join(REQUIRED + OPTIONAL)})")
    missing = [name for name in REQUIRED if completion.get(name) is None]
    if missing:
        raise InvalidCompletion(f"the completion has no {missing[0]}")
    body = dict(completion)
    for name, value in completion.items():
        if name != "completed_at":
            _check_type(name, value)
    body["completed_at"] = _completed_at(completion.get("completed_at"))
    if body["completed_at"] is None:
        if now is None:
            del body["completed_at"]
        else:
            body["completed_at"] = iso_instant(now)
    if isinstance(body.get("groups"), tuple):
        body["groups"] = list(body["groups"])
    return body
