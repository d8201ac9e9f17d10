from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..models.reminder_preferences_request_days_item import (
    ReminderPreferencesRequestDaysItem,
    check_reminder_preferences_request_days_item,
)
from ..models.time_zone import TimeZone, check_time_zone
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReminderPreferencesRequest")


@_attrs_define(repr=False)
class ReminderPreferencesRequest:
    """Reminder choices. On each chosen weekday, once the local time has passed, Podium emits one `reminder.due` event
    unless the player already completed a quiz that local day or ops closed the day. A time skipped by a DST change
    fires at the end of the gap; a time that occurs twice fires at its first occurrence. Unknown keys are ignored.

        Attributes:
            enabled (bool): Whether reminders are on.
            time (str): Local time of day, `HH:MM` (24-hour).
            days (list[ReminderPreferencesRequestDaysItem]): Weekdays.
            time_zone (None | TimeZone | Unset): IANA zone the time is read in; the player's time zone when absent.
    """

    enabled: bool
    time: str
    days: list[ReminderPreferencesRequestDaysItem]
    time_zone: None | TimeZone | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`ReminderPreferencesRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        enabled = self.enabled

        time = self.time

        days = []
        for days_item_data in self.days:
            days_item: str = days_item_data
            days.append(days_item)

        time_zone: None | str | Unset
        if isinstance(self.time_zone, Unset):
            time_zone = UNSET
        elif isinstance(self.time_zone, str):
            time_zone = self.time_zone
        else:
            time_zone = self.time_zone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enabled": enabled,
                "time": time,
                "days": days,
            }
        )
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        time = d.pop("time")

        days = []
        _days = d.pop("days")
        for days_item_data in _days:
            days_item = check_reminder_preferences_request_days_item(days_item_data)

            days.append(days_item)

        def _parse_time_zone(data: object) -> None | TimeZone | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                time_zone_type_0 = check_time_zone(data)

                return time_zone_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TimeZone | Unset, data)

        time_zone = _parse_time_zone(d.pop("time_zone", UNSET))

        reminder_preferences_request = cls(
            enabled=enabled,
            time=time,
            days=days,
            time_zone=time_zone,
        )

        reminder_preferences_request.additional_properties = d
        return reminder_preferences_request

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
