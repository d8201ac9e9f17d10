from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..models.medal_award_medal import MedalAwardMedal, check_medal_award_medal
from ..types import UNSET, Unset

T = TypeVar("T", bound="MedalAward")


@_attrs_define(repr=False)
class MedalAward:
    """A medal won on a closed period.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name.
        user_id (str): Player id.
        medal (MedalAwardMedal): Medal: `gold` for rank 1, `silver` for 2, `bronze` for 3.
        rank (int): Final competition rank (tied players share it, and the medal).
        score (int): Final score. In the board's `metric`: on a `duration` board the run's time in milliseconds (lower
            is better), on an `accuracy` board basis points (8750 is 87.5 %).
        awarded_at (datetime.datetime | Unset): When the period was closed; absent in a dry run.
        display_name (str | Unset): The player's display name, in an admin's close report (dry run or close); absent
            elsewhere.
    """

    board: str
    window: LeaderboardWindow
    period: str
    user_id: str
    medal: MedalAwardMedal
    rank: int
    score: int
    awarded_at: datetime.datetime | Unset = UNSET
    display_name: str | Unset = UNSET

    def __repr__(self) -> str:
        """`MedalAward(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        board = self.board

        window: str = self.window

        period = self.period

        user_id = self.user_id

        medal: str = self.medal

        rank = self.rank

        score = self.score

        awarded_at: str | Unset = UNSET
        if not isinstance(self.awarded_at, Unset):
            awarded_at = self.awarded_at.isoformat()

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "user_id": user_id,
                "medal": medal,
                "rank": rank,
                "score": score,
            }
        )
        if awarded_at is not UNSET:
            field_dict["awarded_at"] = awarded_at
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        user_id = d.pop("user_id")

        medal = check_medal_award_medal(d.pop("medal"))

        rank = d.pop("rank")

        score = d.pop("score")

        _awarded_at = d.pop("awarded_at", UNSET)
        awarded_at: datetime.datetime | Unset
        if isinstance(_awarded_at, Unset):
            awarded_at = UNSET
        else:
            awarded_at = datetime.datetime.fromisoformat(_awarded_at)

        display_name = d.pop("display_name", UNSET)

        medal_award = cls(
            board=board,
            window=window,
            period=period,
            user_id=user_id,
            medal=medal,
            rank=rank,
            score=score,
            awarded_at=awarded_at,
            display_name=display_name,
        )

        return medal_award
