from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.reminder_preferences import ReminderPreferences


T = TypeVar("T", bound="PreferencesResponse")


@_attrs_define(repr=False)
class PreferencesResponse:
    """The stored preferences.

    Attributes:
        user_id (str): Player id.
        time_zone (str): IANA time zone.
        display_name (str | Unset): Name shown on boards, if set.
        reminders (ReminderPreferences | Unset): Reminder choices. On each chosen weekday, once the local time has
            passed, Podium emits one `reminder.due` event unless the player already completed a quiz that local day or ops
            closed the day. A time skipped by a DST change fires at the end of the gap; a time that occurs twice fires at
            its first occurrence.
        next_reminder_at (str | Unset): RFC 3339 time of the next reminder check, when reminders are on.
    """

    user_id: str
    time_zone: str
    display_name: str | Unset = UNSET
    reminders: ReminderPreferences | Unset = UNSET
    next_reminder_at: str | Unset = UNSET

    def __repr__(self) -> str:
        """`PreferencesResponse(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        user_id = self.user_id

        time_zone = self.time_zone

        display_name = self.display_name

        reminders: dict[str, Any] | Unset = UNSET
        if not isinstance(self.reminders, Unset):
            reminders = self.reminders.to_dict()

        next_reminder_at = self.next_reminder_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "time_zone": time_zone,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if reminders is not UNSET:
            field_dict["reminders"] = reminders
        if next_reminder_at is not UNSET:
            field_dict["next_reminder_at"] = next_reminder_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.reminder_preferences import ReminderPreferences

        d = dict(src_dict)
        user_id = d.pop("user_id")

        time_zone = d.pop("time_zone")

        display_name = d.pop("display_name", UNSET)

        _reminders = d.pop("reminders", UNSET)
        reminders: ReminderPreferences | Unset
        if isinstance(_reminders, Unset):
            reminders = UNSET
        else:
            reminders = ReminderPreferences.from_dict(_reminders)

        next_reminder_at = d.pop("next_reminder_at", UNSET)

        preferences_response = cls(
            user_id=user_id,
            time_zone=time_zone,
            display_name=display_name,
            reminders=reminders,
            next_reminder_at=next_reminder_at,
        )

        return preferences_response
