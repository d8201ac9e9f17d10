from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import Unset

if TYPE_CHECKING:
    from ..models.leaderboard_snapshot import LeaderboardSnapshot


T = TypeVar("T", bound="SnapshotList")


@_attrs_define(repr=False)
class SnapshotList:
    """Snapshots of one board period.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name: `all`, `2026-11-21`, `2026-W47` or `2026-11`.
        snapshots (list[LeaderboardSnapshot]): Snapshots, newest first.
    """

    board: str
    window: LeaderboardWindow
    period: str
    snapshots: list[LeaderboardSnapshot]

    def __repr__(self) -> str:
        """`SnapshotList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        snapshots = []
        for snapshots_item_data in self.snapshots:
            snapshots_item = snapshots_item_data.to_dict()
            snapshots.append(snapshots_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "snapshots": snapshots,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.leaderboard_snapshot import LeaderboardSnapshot

        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        snapshots = []
        _snapshots = d.pop("snapshots")
        for snapshots_item_data in _snapshots:
            snapshots_item = LeaderboardSnapshot.from_dict(snapshots_item_data)

            snapshots.append(snapshots_item)

        snapshot_list = cls(
            board=board,
            window=window,
            period=period,
            snapshots=snapshots,
        )

        return snapshot_list
