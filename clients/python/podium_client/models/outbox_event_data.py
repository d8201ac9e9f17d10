from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="OutboxEventData")


@_attrs_define(repr=False)
class OutboxEventData:
    """What happened, by `type` (all keys `snake_case`). `completion.recorded`: `completion_id`, `user_id`, `quiz_id`,
    `topic`, `difficulty`, `correct`, `total`, `points`, `completed_at`. `level.reached`: `user_id`, `level`, `points`,
    `completion_id`. `period.closed`: `board`, `window`, `period`, `players`, `medals` (how many), `closed_at`.
    `medal.awarded`: `user_id`, `board`, `window`, `period`, `medal`, `rank`, `score`. `achievement.unlocked`:
    `user_id`, `achievement`, `name`, `completion_id`. `reminder.due`: `user_id`, `local_date`, `time_zone`,
    `streak_at_risk`.

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`OutboxEventData(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outbox_event_data = cls()

        outbox_event_data.additional_properties = d
        return outbox_event_data

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
