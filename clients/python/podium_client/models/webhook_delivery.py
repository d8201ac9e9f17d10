from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.event_type import EventType, check_event_type
from ..models.webhook_delivery_status import (
    WebhookDeliveryStatus,
    check_webhook_delivery_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_attempt import WebhookAttempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define(repr=False)
class WebhookDelivery:
    """One event's delivery to one webhook.

    Attributes:
        id (int): Delivery id (for resend).
        webhook_id (str): Webhook id.
        event_id (str): The event's id, as the receiver sees it in `Podium-Event-Id`.
        event_type (EventType): Kind of event: a completion was recorded, a player reached a level or unlocked an
            achievement, a period closed, a medal was awarded, a reminder is due. `league.promoted`, `league.relegated` and
            `league.stayed`: a league week's close moved a player (data: `user_id`, `league`, `period`, `board`, `tier`,
            `next_tier`, `rank`, `score`). `goal.completed`: a player (personal goal) or a group (class goal) reached a
            goal's target, once per player or group and period (data: `goal`, `title`, `kind`, `user_id` or `group`,
            `period`, `window`, `target`, `progress`, `completion_id` for a personal goal, `completed_at`).
        status (WebhookDeliveryStatus): `pending` (waiting for its next attempt), `sending`, `delivered` or `dead`
            (attempts used up).
        attempts (int): Attempts made.
        history (list[WebhookAttempt]): Every attempt, first to last.
        next_attempt_at (str | Unset): RFC 3339 time of the next attempt, while pending.
        last_status_code (int | Unset): Status code of the last answer.
        last_error (str | Unset): Last error.
        delivered_at (str | Unset): RFC 3339 delivery time.
    """

    id: int
    webhook_id: str
    event_id: str
    event_type: EventType
    status: WebhookDeliveryStatus
    attempts: int
    history: list[WebhookAttempt]
    next_attempt_at: str | Unset = UNSET
    last_status_code: int | Unset = UNSET
    last_error: str | Unset = UNSET
    delivered_at: str | Unset = UNSET

    def __repr__(self) -> str:
        """`WebhookDelivery(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        id = self.id

        webhook_id = self.webhook_id

        event_id = self.event_id

        event_type: str = self.event_type

        status: str = self.status

        attempts = self.attempts

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        next_attempt_at = self.next_attempt_at

        last_status_code = self.last_status_code

        last_error = self.last_error

        delivered_at = self.delivered_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "webhook_id": webhook_id,
                "event_id": event_id,
                "event_type": event_type,
                "status": status,
                "attempts": attempts,
                "history": history,
            }
        )
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at
        if last_status_code is not UNSET:
            field_dict["last_status_code"] = last_status_code
        if last_error is not UNSET:
            field_dict["last_error"] = last_error
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_attempt import WebhookAttempt

        d = dict(src_dict)
        id = d.pop("id")

        webhook_id = d.pop("webhook_id")

        event_id = d.pop("event_id")

        event_type = check_event_type(d.pop("event_type"))

        status = check_webhook_delivery_status(d.pop("status"))

        attempts = d.pop("attempts")

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = WebhookAttempt.from_dict(history_item_data)

            history.append(history_item)

        next_attempt_at = d.pop("next_attempt_at", UNSET)

        last_status_code = d.pop("last_status_code", UNSET)

        last_error = d.pop("last_error", UNSET)

        delivered_at = d.pop("delivered_at", UNSET)

        webhook_delivery = cls(
            id=id,
            webhook_id=webhook_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempts=attempts,
            history=history,
            next_attempt_at=next_attempt_at,
            last_status_code=last_status_code,
            last_error=last_error,
            delivered_at=delivered_at,
        )

        return webhook_delivery
