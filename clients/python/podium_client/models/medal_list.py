from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.medal_award import MedalAward


T = TypeVar("T", bound="MedalList")


@_attrs_define
class MedalList:
    """A player's medals.

    Attributes:
        medals (list[MedalAward]): Medals, newest first.
    """

    medals: list[MedalAward]

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
