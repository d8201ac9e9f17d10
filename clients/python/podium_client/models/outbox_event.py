from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.event_type import EventType, check_event_type
from ..types import Unset

if TYPE_CHECKING:
    from ..models.outbox_event_data import OutboxEventData


T = TypeVar("T", bound="OutboxEvent")


@_attrs_define(repr=False)
class OutboxEvent:
    """One event of the feed.

    Attributes:
        id (str): Stable, unique id; deduplicate on it.
        type_ (EventType): Kind of event: a completion was recorded, a player reached a level or unlocked an
            achievement, a period closed, a medal was awarded, a reminder is due. `league.promoted`, `league.relegated` and
            `league.stayed`: a league week's close moved a player (data: `user_id`, `league`, `period`, `board`, `tier`,
            `next_tier`, `rank`, `score`). `goal.completed`: a player (personal goal) or a group (class goal) reached a
            goal's target, once per player or group and period (data: `goal`, `title`, `kind`, `user_id` or `group`,
            `period`, `window`, `target`, `progress`, `completion_id` for a personal goal, `completed_at`).
        occurred_at (datetime.datetime): When the change it reports happened.
        data (OutboxEventData): What happened, by `type` (all keys `snake_case`). `completion.recorded`:
            `completion_id`, `user_id`, `quiz_id`, `topic`, `difficulty`, `correct`, `total`, `points`, `completed_at`.
            `level.reached`: `user_id`, `level`, `points`, `completion_id`. `period.closed`: `board`, `window`, `period`,
            `players`, `medals` (how many), `closed_at`. `medal.awarded`: `user_id`, `board`, `window`, `period`, `medal`,
            `rank`, `score`. `achievement.unlocked`: `user_id`, `achievement`, `name`, `completion_id`. `reminder.due`:
            `user_id`, `local_date`, `time_zone`, `streak_at_risk`.
        cursor (str): Position just after this event: pass it as `after` to continue from here.
    """

    id: str
    type_: EventType
    occurred_at: datetime.datetime
    data: OutboxEventData
    cursor: str

    def __repr__(self) -> str:
        """`OutboxEvent(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        type_: str = self.type_

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()

        cursor = self.cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "occurred_at": occurred_at,
                "data": data,
                "cursor": cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.outbox_event_data import OutboxEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = check_event_type(d.pop("type"))

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        data = OutboxEventData.from_dict(d.pop("data"))

        cursor = d.pop("cursor")

        outbox_event = cls(
            id=id,
            type_=type_,
            occurred_at=occurred_at,
            data=data,
            cursor=cursor,
        )

        return outbox_event
