from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="UnlockedAchievement")


@_attrs_define(repr=False)
class UnlockedAchievement:
    """An achievement a player unlocked (each at most once).

    Attributes:
        id (str): Rule id, e.g. `first-quiz`.
        name (str): Name shown to players.
        unlocked_at (str): RFC 3339 time it was unlocked.
    """

    id: str
    name: str
    unlocked_at: str

    def __repr__(self) -> str:
        """`UnlockedAchievement(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        id = self.id

        name = self.name

        unlocked_at = self.unlocked_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "unlocked_at": unlocked_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        unlocked_at = d.pop("unlocked_at")

        unlocked_achievement = cls(
            id=id,
            name=name,
            unlocked_at=unlocked_at,
        )

        return unlocked_achievement
