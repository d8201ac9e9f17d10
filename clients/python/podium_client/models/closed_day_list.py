from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.closed_day import ClosedDay


T = TypeVar("T", bound="ClosedDayList")


@_attrs_define(repr=False)
class ClosedDayList:
    """Closed days, oldest first.

    Attributes:
        closed_days (list[ClosedDay]):
    """

    closed_days: list[ClosedDay]

    def __repr__(self) -> str:
        """`ClosedDayList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        closed_days = []
        for closed_days_item_data in self.closed_days:
            closed_days_item = closed_days_item_data.to_dict()
            closed_days.append(closed_days_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "closed_days": closed_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.closed_day import ClosedDay

        d = dict(src_dict)
        closed_days = []
        _closed_days = d.pop("closed_days")
        for closed_days_item_data in _closed_days:
            closed_days_item = ClosedDay.from_dict(closed_days_item_data)

            closed_days.append(closed_days_item)

        closed_day_list = cls(
            closed_days=closed_days,
        )

        return closed_day_list
