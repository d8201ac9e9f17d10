from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.board_metric import BoardMetric, check_board_metric
from ..models.tie_break import TieBreak, check_tie_break

if TYPE_CHECKING:
    from ..models.window_summary import WindowSummary


T = TypeVar("T", bound="BoardSummary")


@_attrs_define
class BoardSummary:
    """One board.

    Attributes:
        board (str): Board id: `global`, `topic:<name>`, `group:<name>` or `contest:<id>`.
        metric (BoardMetric): What a board ranks by: points earned or completions played.
        time_zone (str): IANA time zone its periods are cut in.
        tie_break (TieBreak): How a board ranks equal scores: `shared` (the default) gives tied players the same
            competition rank (1-2-2-4); `earliest` ranks higher the player who reached the score first (by the
            `completed_at` of the completion that reached it); `fastest` ranks higher the player whose scoring completions
            took less `duration_ms` in total; a scoring completion without `duration_ms` counts as the slowest possible, so
            a player with any ranks after every player timed throughout (among them, fewer untimed completions first, then
            less timed play). A full tie under `earliest` or `fastest` (same score and same second, or same total time and
            untimed count) still shares a rank. Set per board in the rules file (`tie_break`).
        windows (list[WindowSummary]): Its windows with their current periods.
    """

    board: str
    metric: BoardMetric
    time_zone: str
    tie_break: TieBreak
    windows: list[WindowSummary]

    def to_dict(self) -> dict[str, Any]:
        board = self.board

        metric: str = self.metric

        time_zone = self.time_zone

        tie_break: str = self.tie_break

        windows = []
        for windows_item_data in self.windows:
            windows_item = windows_item_data.to_dict()
            windows.append(windows_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "metric": metric,
                "time_zone": time_zone,
                "tie_break": tie_break,
                "windows": windows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.window_summary import WindowSummary

        d = dict(src_dict)
        board = d.pop("board")

        metric = check_board_metric(d.pop("metric"))

        time_zone = d.pop("time_zone")

        tie_break = check_tie_break(d.pop("tie_break"))

        windows = []
        _windows = d.pop("windows")
        for windows_item_data in _windows:
            windows_item = WindowSummary.from_dict(windows_item_data)

            windows.append(windows_item)

        board_summary = cls(
            board=board,
            metric=metric,
            time_zone=time_zone,
            tie_break=tie_break,
            windows=windows,
        )

        return board_summary
