from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..models.time_zone import TimeZone, check_time_zone
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.reminder_preferences_request import ReminderPreferencesRequest


T = TypeVar("T", bound="PreferencesRequest")


@_attrs_define(repr=False)
class PreferencesRequest:
    """A player's preferences; they replace the stored ones (absent reminders turn reminders off). Unknown keys are
    ignored.

        Attributes:
            display_name (None | str | Unset): Name shown on boards; absent clears it. 1 to 64 Unicode scalars, not only
                whitespace, with no control characters and no invisible format characters (bidi controls, zero-width spaces,
                tags), except a zero-width joiner or non-joiner (U+200D, U+200C) after a non-ASCII character, as in emoji
                sequences and Persian or Indic names; at most 4 combining marks (variation selectors included) on one character.
            time_zone (None | TimeZone | Unset): IANA time zone such as `Europe/Paris`; absent means UTC.
            reminders (None | ReminderPreferencesRequest | Unset): Reminder choices; absent or null turns reminders off.
    """

    display_name: None | str | Unset = UNSET
    time_zone: None | TimeZone | Unset = UNSET
    reminders: None | ReminderPreferencesRequest | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`PreferencesRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        from ..models.reminder_preferences_request import ReminderPreferencesRequest

        display_name: None | str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        time_zone: None | str | Unset
        if isinstance(self.time_zone, Unset):
            time_zone = UNSET
        elif isinstance(self.time_zone, str):
            time_zone = self.time_zone
        else:
            time_zone = self.time_zone

        reminders: dict[str, Any] | None | Unset
        if isinstance(self.reminders, Unset):
            reminders = UNSET
        elif isinstance(self.reminders, ReminderPreferencesRequest):
            reminders = self.reminders.to_dict()
        else:
            reminders = self.reminders

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone
        if reminders is not UNSET:
            field_dict["reminders"] = reminders

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.reminder_preferences_request import ReminderPreferencesRequest

        d = dict(src_dict)

        def _parse_display_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))

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

        def _parse_reminders(data: object) -> None | ReminderPreferencesRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reminders_type_0 = ReminderPreferencesRequest.from_dict(data)

                return reminders_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReminderPreferencesRequest | Unset, data)

        reminders = _parse_reminders(d.pop("reminders", UNSET))

        preferences_request = cls(
            display_name=display_name,
            time_zone=time_zone,
            reminders=reminders,
        )

        preferences_request.additional_properties = d
        return preferences_request

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
