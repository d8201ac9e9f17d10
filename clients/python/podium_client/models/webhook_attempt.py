from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookAttempt")


@_attrs_define(repr=False)
class WebhookAttempt:
    """One attempt to deliver.

    Attributes:
        attempt (int): Attempt number.
        replica (str): Replica that sent it.
        started_at (str): RFC 3339 start.
        duration_ms (int): How long the receiver took, or until the timeout.
        status_code (int | Unset): HTTP status the receiver answered, if it answered.
        error (str | Unset): What went wrong, if anything.
    """

    attempt: int
    replica: str
    started_at: str
    duration_ms: int
    status_code: int | Unset = UNSET
    error: str | Unset = UNSET

    def __repr__(self) -> str:
        """`WebhookAttempt(field=value, ...)` with the fields that are set: unset optional fields are left out."""
        fields = (
            (attribute.name, getattr(self, attribute.name))
            for attribute in _attrs_fields(type(self))
        )
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in fields
            if not isinstance(value, Unset)
            and not (name == "additional_properties" and not value)
        )
        return f"{type(self).__name__}({shown})"

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        replica = self.replica

        started_at = self.started_at

        duration_ms = self.duration_ms

        status_code = self.status_code

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "replica": replica,
                "started_at": started_at,
                "duration_ms": duration_ms,
            }
        )
        if status_code is not UNSET:
            field_dict["status_code"] = status_code
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        replica = d.pop("replica")

        started_at = d.pop("started_at")

        duration_ms = d.pop("duration_ms")

        status_code = d.pop("status_code", UNSET)

        error = d.pop("error", UNSET)

        webhook_attempt = cls(
            attempt=attempt,
            replica=replica,
            started_at=started_at,
            duration_ms=duration_ms,
            status_code=status_code,
            error=error,
        )

        return webhook_attempt
