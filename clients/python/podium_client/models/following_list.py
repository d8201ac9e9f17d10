from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="FollowingList")


@_attrs_define(repr=False)
class FollowingList:
    """Whom a player follows.

    Attributes:
        user_id (str): The player.
        following (list[str]): The players they follow, by user id, sorted.
        maximum (int): The most players one may follow.
    """

    user_id: str
    following: list[str]
    maximum: int

    def __repr__(self) -> str:
        """`FollowingList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        following = self.following

        maximum = self.maximum

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "following": following,
                "maximum": maximum,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        following = cast(list[str], d.pop("following"))

        maximum = d.pop("maximum")

        following_list = cls(
            user_id=user_id,
            following=following,
            maximum=maximum,
        )

        return following_list
