from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_entry_medal import (
    LeaderboardEntryMedal,
    check_leaderboard_entry_medal,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="LeaderboardEntry")


@_attrs_define(repr=False)
class LeaderboardEntry:
    """One row of a leaderboard.

    Attributes:
        rank (int): Competition rank: ties share a rank.
        user_id (str): Player id.
        score (int): Score. In the board's `metric`: on a `duration` board the run's time in milliseconds (lower is
            better), on an `accuracy` board basis points (8750 is 87.5 %).
        display_name (str | Unset): Display name, if the player set one.
        medal (LeaderboardEntryMedal | Unset): Medal won, on closed periods of windows that award medals.
    """

    rank: int
    user_id: str
    score: int
    display_name: str | Unset = UNSET
    medal: LeaderboardEntryMedal | Unset = UNSET

    def __repr__(self) -> str:
        """`LeaderboardEntry(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        rank = self.rank

        user_id = self.user_id

        score = self.score

        display_name = self.display_name

        medal: str | Unset = UNSET
        if not isinstance(self.medal, Unset):
            medal = self.medal

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "rank": rank,
                "user_id": user_id,
                "score": score,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if medal is not UNSET:
            field_dict["medal"] = medal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rank = d.pop("rank")

        user_id = d.pop("user_id")

        score = d.pop("score")

        display_name = d.pop("display_name", UNSET)

        _medal = d.pop("medal", UNSET)
        medal: LeaderboardEntryMedal | Unset
        if isinstance(_medal, Unset):
            medal = UNSET
        else:
            medal = check_leaderboard_entry_medal(_medal)

        leaderboard_entry = cls(
            rank=rank,
            user_id=user_id,
            score=score,
            display_name=display_name,
            medal=medal,
        )

        return leaderboard_entry
