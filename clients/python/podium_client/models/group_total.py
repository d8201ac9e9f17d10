from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="GroupTotal")


@_attrs_define(repr=False)
class GroupTotal:
    """One group's total in a contest run.

    Attributes:
        group (str): The group's name.
        total (int): The sum of what the group's completions scored in the run.
        rank (int): Its rank among the run's groups, competition style (1-2-2-4).
    """

    group: str
    total: int
    rank: int

    def __repr__(self) -> str:
        """`GroupTotal(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        group = self.group

        total = self.total

        rank = self.rank

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "group": group,
                "total": total,
                "rank": rank,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        group = d.pop("group")

        total = d.pop("total")

        rank = d.pop("rank")

        group_total = cls(
            group=group,
            total=total,
            rank=rank,
        )

        return group_total
