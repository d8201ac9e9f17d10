from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.rank_point import RankPoint


T = TypeVar("T", bound="RankHistory")


@_attrs_define(repr=False)
class RankHistory:
    """A player's rank over time.

    Attributes:
        user_id (str): Player id.
        points (list[RankPoint]): The player's place in each snapshot that lists the player, newest first.
    """

    user_id: str
    points: list[RankPoint]

    def __repr__(self) -> str:
        """`RankHistory(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "points": points,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rank_point import RankPoint

        d = dict(src_dict)
        user_id = d.pop("user_id")

        points = []
        _points = d.pop("points")
        for points_item_data in _points:
            points_item = RankPoint.from_dict(points_item_data)

            points.append(points_item)

        rank_history = cls(
            user_id=user_id,
            points=points,
        )

        return rank_history
