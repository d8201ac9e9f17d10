from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import Unset

if TYPE_CHECKING:
    from ..models.period_summary import PeriodSummary


T = TypeVar("T", bound="PeriodList")


@_attrs_define(repr=False)
class PeriodList:
    """A board window's newest periods.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        time_zone (str): IANA time zone the board's periods are cut in.
        periods (list[PeriodSummary]): Newest first.
    """

    board: str
    window: LeaderboardWindow
    time_zone: str
    periods: list[PeriodSummary]

    def __repr__(self) -> str:
        """`PeriodList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        time_zone = self.time_zone

        periods = []
        for periods_item_data in self.periods:
            periods_item = periods_item_data.to_dict()
            periods.append(periods_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "time_zone": time_zone,
                "periods": periods,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.period_summary import PeriodSummary

        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        time_zone = d.pop("time_zone")

        periods = []
        _periods = d.pop("periods")
        for periods_item_data in _periods:
            periods_item = PeriodSummary.from_dict(periods_item_data)

            periods.append(periods_item)

        period_list = cls(
            board=board,
            window=window,
            time_zone=time_zone,
            periods=periods,
        )

        return period_list
