from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GroupTotal")


@_attrs_define
class GroupTotal:
    """One group's total in a contest run.

    Attributes:
        group (str): The group's name.
        total (int): The sum of what the group's completions scored in the run.
        rank (int): Its rank among the run's groups, competition style (1-2-2-4).
    """

    group: str
    total: int
    rank: int

    def to_dict(self) -> dict[str, Any]:
        group = self.group

        total = self.total

        rank = self.rank

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "group": group,
                "total": total,
                "rank": rank,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        group = d.pop("group")

        total = d.pop("total")

        rank = d.pop("rank")

        group_total = cls(
            group=group,
            total=total,
            rank=rank,
        )

        return group_total
