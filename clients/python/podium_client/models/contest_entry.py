from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ContestEntry")


@_attrs_define
class ContestEntry:
    """A player's entry in a contest.

    Attributes:
        contest (str): The contest's id.
        user_id (str): The player, now an entrant.
    """

    contest: str
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        contest = self.contest

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "contest": contest,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        contest = d.pop("contest")

        user_id = d.pop("user_id")

        contest_entry = cls(
            contest=contest,
            user_id=user_id,
        )

        return contest_entry
