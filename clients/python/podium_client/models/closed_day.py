from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ClosedDay")


@_attrs_define
class ClosedDay:
    """A day ops closed (a holiday): no reminders on that date, in every player's own zone.

    Attributes:
        day (str): Date `YYYY-MM-DD`.
        note (str): Why it is closed.
    """

    day: str
    note: str

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
