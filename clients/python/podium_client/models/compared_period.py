from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.compared_period_status import (
    ComparedPeriodStatus,
    check_compared_period_status,
)
from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import UNSET, Unset

T = TypeVar("T", bound="ComparedPeriod")


@_attrs_define(repr=False)
class ComparedPeriod:
    """One side of a comparison.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name.
        status (ComparedPeriodStatus): Whether the period still takes scores.
        score (int): The player's score, or the group's total (0 when none).
        of (int): How many players (player) or groups (group) the rank is out of.
        title (str | Unset): The contest's title, on a contest's board.
        starts_at (datetime.datetime | Unset): Start of the period; absent for `all`.
        ends_at (datetime.datetime | Unset): End of the period, exclusive; absent for `all`.
        rank (int | Unset): The player's rank among the players, or the group's among the groups; absent when it has no
            score there.
    """

    board: str
    window: LeaderboardWindow
    period: str
    status: ComparedPeriodStatus
    score: int
    of: int
    title: str | Unset = UNSET
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    rank: int | Unset = UNSET

    def __repr__(self) -> str:
        """`ComparedPeriod(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        status: str = self.status

        score = self.score

        of = self.of

        title = self.title

        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()

        ends_at: str | Unset = UNSET
        if not isinstance(self.ends_at, Unset):
            ends_at = self.ends_at.isoformat()

        rank = self.rank

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "status": status,
                "score": score,
                "of": of,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if rank is not UNSET:
            field_dict["rank"] = rank

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        status = check_compared_period_status(d.pop("status"))

        score = d.pop("score")

        of = d.pop("of")

        title = d.pop("title", UNSET)

        _starts_at = d.pop("starts_at", UNSET)
        starts_at: datetime.datetime | Unset
        if isinstance(_starts_at, Unset):
            starts_at = UNSET
        else:
            starts_at = datetime.datetime.fromisoformat(_starts_at)

        _ends_at = d.pop("ends_at", UNSET)
        ends_at: datetime.datetime | Unset
        if isinstance(_ends_at, Unset):
            ends_at = UNSET
        else:
            ends_at = datetime.datetime.fromisoformat(_ends_at)

        rank = d.pop("rank", UNSET)

        compared_period = cls(
            board=board,
            window=window,
            period=period,
            status=status,
            score=score,
            of=of,
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            rank=rank,
        )

        return compared_period
