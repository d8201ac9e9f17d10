from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="ClosedDay")


@_attrs_define(repr=False)
class ClosedDay:
    """A day ops closed (a holiday): no reminders on that date, in every player's own zone.

    Attributes:
        day (str): Date `YYYY-MM-DD`.
        note (str): Why it is closed.
    """

    day: str
    note: str

    def __repr__(self) -> str:
        """`ClosedDay(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        day = self.day

        note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "day": day,
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        day = d.pop("day")

        note = d.pop("note")

        closed_day = cls(
            day=day,
            note=note,
        )

        return closed_day
