from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import Unset

T = TypeVar("T", bound="MissedPeriod")


@_attrs_define(repr=False)
class MissedPeriod:
    """A closed period a late completion could no longer count in.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name.
        closed_at (datetime.datetime): When the period closed (its end plus the grace time).
    """

    board: str
    window: LeaderboardWindow
    period: str
    closed_at: datetime.datetime

    def __repr__(self) -> str:
        """`MissedPeriod(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        closed_at = self.closed_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "closed_at": closed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        closed_at = datetime.datetime.fromisoformat(d.pop("closed_at"))

        missed_period = cls(
            board=board,
            window=window,
            period=period,
            closed_at=closed_at,
        )

        return missed_period
