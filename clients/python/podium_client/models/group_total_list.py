from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import Unset

if TYPE_CHECKING:
    from ..models.group_total import GroupTotal


T = TypeVar("T", bound="GroupTotalList")


@_attrs_define(repr=False)
class GroupTotalList:
    """The group totals of one contest run.

    Attributes:
        board (str): Board id (`contest:<id>`).
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): The run's period name.
        groups (list[GroupTotal]): Totals, best first (ties by group name).
    """

    board: str
    window: LeaderboardWindow
    period: str
    groups: list[GroupTotal]

    def __repr__(self) -> str:
        """`GroupTotalList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "groups": groups,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.group_total import GroupTotal

        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        groups = []
        _groups = d.pop("groups")
        for groups_item_data in _groups:
            groups_item = GroupTotal.from_dict(groups_item_data)

            groups.append(groups_item)

        group_total_list = cls(
            board=board,
            window=window,
            period=period,
            groups=groups,
        )

        return group_total_list
