from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookTestResult")


@_attrs_define(repr=False)
class WebhookTestResult:
    """How a webhook's test event went.

    Attributes:
        webhook_id (str): The webhook.
        event_id (str): The test event's id (`evt_test_…`), sent as `Podium-Event-Id`.
        delivered (bool): Whether the receiver answered 2xx.
        duration_ms (int): How long the attempt took.
        status_code (int | Unset): The receiver's status, when it answered.
        error (str | Unset): Why it failed, when it did.
    """

    webhook_id: str
    event_id: str
    delivered: bool
    duration_ms: int
    status_code: int | Unset = UNSET
    error: str | Unset = UNSET

    def __repr__(self) -> str:
        """`WebhookTestResult(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        webhook_id = self.webhook_id

        event_id = self.event_id

        delivered = self.delivered

        duration_ms = self.duration_ms

        status_code = self.status_code

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "webhook_id": webhook_id,
                "event_id": event_id,
                "delivered": delivered,
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
        webhook_id = d.pop("webhook_id")

        event_id = d.pop("event_id")

        delivered = d.pop("delivered")

        duration_ms = d.pop("duration_ms")

        status_code = d.pop("status_code", UNSET)

        error = d.pop("error", UNSET)

        webhook_test_result = cls(
            webhook_id=webhook_id,
            event_id=event_id,
            delivered=delivered,
            duration_ms=duration_ms,
            status_code=status_code,
            error=error,
        )

        return webhook_test_result
