from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="PlayerMatch")


@_attrs_define(repr=False)
class PlayerMatch:
    """A player a search found.

    Attributes:
        user_id (str): The player's id.
        points (int): Points in all.
        created_at (datetime.datetime): When Podium first heard of the player.
        display_name (str | Unset): The display name, if set.
    """

    user_id: str
    points: int
    created_at: datetime.datetime
    display_name: str | Unset = UNSET

    def __repr__(self) -> str:
        """`PlayerMatch(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        points = self.points

        created_at = self.created_at.isoformat()

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "points": points,
                "created_at": created_at,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        points = d.pop("points")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        display_name = d.pop("display_name", UNSET)

        player_match = cls(
            user_id=user_id,
            points=points,
            created_at=created_at,
            display_name=display_name,
        )

        return player_match
