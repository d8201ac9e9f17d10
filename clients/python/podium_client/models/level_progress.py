from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="LevelProgress")


@_attrs_define(repr=False)
class LevelProgress:
    """Where a points total sits on the level curve.

    Attributes:
        level (int): Current level, starting at 1.
        level_starts_at (int): Points total at which the current level starts.
        next_level_at (int | Unset): Points total at which the next level starts; absent at the last level.
        points_to_next_level (int | Unset): Points still needed for the next level; absent at the last level.
    """

    level: int
    level_starts_at: int
    next_level_at: int | Unset = UNSET
    points_to_next_level: int | Unset = UNSET

    def __repr__(self) -> str:
        """`LevelProgress(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        level = self.level

        level_starts_at = self.level_starts_at

        next_level_at = self.next_level_at

        points_to_next_level = self.points_to_next_level

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "level": level,
                "level_starts_at": level_starts_at,
            }
        )
        if next_level_at is not UNSET:
            field_dict["next_level_at"] = next_level_at
        if points_to_next_level is not UNSET:
            field_dict["points_to_next_level"] = points_to_next_level

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        level = d.pop("level")

        level_starts_at = d.pop("level_starts_at")

        next_level_at = d.pop("next_level_at", UNSET)

        points_to_next_level = d.pop("points_to_next_level", UNSET)

        level_progress = cls(
            level=level,
            level_starts_at=level_starts_at,
            next_level_at=next_level_at,
            points_to_next_level=points_to_next_level,
        )

        return level_progress
