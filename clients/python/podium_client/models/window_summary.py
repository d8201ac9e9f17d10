from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import UNSET, Unset

T = TypeVar("T", bound="WindowSummary")


@_attrs_define(repr=False)
class WindowSummary:
    """A window of a board with its current period.

    Attributes:
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Name of the current period.
        medals (bool): Whether closing a period of this window awards medals.
        starts_at (datetime.datetime | Unset): Start of the current period; absent for `all`.
        ends_at (datetime.datetime | Unset): End of the current period, exclusive; absent for `all`.
        closes_at (datetime.datetime | Unset): When the current period closes (end plus grace); absent for `all`.
    """

    window: LeaderboardWindow
    period: str
    medals: bool
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    closes_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`WindowSummary(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        window: str = self.window

        period = self.period

        medals = self.medals

        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()

        ends_at: str | Unset = UNSET
        if not isinstance(self.ends_at, Unset):
            ends_at = self.ends_at.isoformat()

        closes_at: str | Unset = UNSET
        if not isinstance(self.closes_at, Unset):
            closes_at = self.closes_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "window": window,
                "period": period,
                "medals": medals,
            }
        )
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if closes_at is not UNSET:
            field_dict["closes_at"] = closes_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        medals = d.pop("medals")

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

        _closes_at = d.pop("closes_at", UNSET)
        closes_at: datetime.datetime | Unset
        if isinstance(_closes_at, Unset):
            closes_at = UNSET
        else:
            closes_at = datetime.datetime.fromisoformat(_closes_at)

        window_summary = cls(
            window=window,
            period=period,
            medals=medals,
            starts_at=starts_at,
            ends_at=ends_at,
            closes_at=closes_at,
        )

        return window_summary
