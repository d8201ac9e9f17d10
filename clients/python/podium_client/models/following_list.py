from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="FollowingList")


@_attrs_define
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
