from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Streak")


@_attrs_define
class Streak:
    """Consecutive local days (the player's time zone) with at least one completion. The current run counts while its last
    day is today or yesterday.

        Attributes:
            current (int): Days in the run that is still alive; 0 once a whole local day passed without a completion.
            longest (int): The longest run ever.
    """

    current: int
    longest: int

    def to_dict(self) -> dict[str, Any]:
        current = self.current

        longest = self.longest

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "current": current,
                "longest": longest,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        current = d.pop("current")

        longest = d.pop("longest")

        streak = cls(
            current=current,
            longest=longest,
        )

        return streak
