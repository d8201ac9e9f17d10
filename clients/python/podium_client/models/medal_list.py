from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.medal_award import MedalAward


T = TypeVar("T", bound="MedalList")


@_attrs_define(repr=False)
class MedalList:
    """A player's medals.

    Attributes:
        medals (list[MedalAward]): Medals, newest first.
    """

    medals: list[MedalAward]

    def __repr__(self) -> str:
        """`MedalList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        medals = []
        for medals_item_data in self.medals:
            medals_item = medals_item_data.to_dict()
            medals.append(medals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "medals": medals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.medal_award import MedalAward

        d = dict(src_dict)
        medals = []
        _medals = d.pop("medals")
        for medals_item_data in _medals:
            medals_item = MedalAward.from_dict(medals_item_data)

            medals.append(medals_item)

        medal_list = cls(
            medals=medals,
        )

        return medal_list
