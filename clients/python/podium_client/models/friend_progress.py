from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="FriendProgress")


@_attrs_define(repr=False)
class FriendProgress:
    """A followed player's latest progress.

    Attributes:
        user_id (str): The followed player.
        level (int): Their level.
        points (int): Their points in all.
        points_this_week (int): Their score on the global board's current week (0 when they have not played this week).
        display_name (str | Unset): Their display name, if set.
        last_active_at (datetime.datetime | Unset): Their last completion or preference change; absent for a player who
            has not played yet.
    """

    user_id: str
    level: int
    points: int
    points_this_week: int
    display_name: str | Unset = UNSET
    last_active_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`FriendProgress(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        level = self.level

        points = self.points

        points_this_week = self.points_this_week

        display_name = self.display_name

        last_active_at: str | Unset = UNSET
        if not isinstance(self.last_active_at, Unset):
            last_active_at = self.last_active_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "level": level,
                "points": points,
                "points_this_week": points_this_week,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if last_active_at is not UNSET:
            field_dict["last_active_at"] = last_active_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        level = d.pop("level")

        points = d.pop("points")

        points_this_week = d.pop("points_this_week")

        display_name = d.pop("display_name", UNSET)

        _last_active_at = d.pop("last_active_at", UNSET)
        last_active_at: datetime.datetime | Unset
        if isinstance(_last_active_at, Unset):
            last_active_at = UNSET
        else:
            last_active_at = datetime.datetime.fromisoformat(_last_active_at)

        friend_progress = cls(
            user_id=user_id,
            level=level,
            points=points,
            points_this_week=points_this_week,
            display_name=display_name,
            last_active_at=last_active_at,
        )

        return friend_progress
