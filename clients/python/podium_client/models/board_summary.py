from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.board_aggregate import BoardAggregate, check_board_aggregate
from ..models.board_metric import BoardMetric, check_board_metric
from ..models.tie_break import TieBreak, check_tie_break
from ..types import Unset

if TYPE_CHECKING:
    from ..models.window_summary import WindowSummary


T = TypeVar("T", bound="BoardSummary")


@_attrs_define(repr=False)
class BoardSummary:
    """One board.

    Attributes:
        board (str): Board id: `global`, `topic:<name>`, `group:<name>`, `quiz:<quiz_id>`, `contest:<id>` or
            `league:<id>:<tier>:<n>`.
        metric (BoardMetric): Which value of a completion a board ranks by: `points` (the default: points earned),
            `completions` (each completion counts 1; `sum` boards only), `correct` (correct answers), `accuracy` (correct ÷
            total in basis points, 0-10000: 8750 is 87.5 %; `best` and `latest` boards only) or `duration` (the fastest
            perfect run: every answer correct and `duration_ms` given; lower ranks higher; `best` boards only; a score is
            the run's time in milliseconds, kept to the centisecond, and runs slower than 5 h 49 min do not count). A
            completion that is not a perfect, timed run does not count on a `duration` board at all. Contests and leagues
            take `points`, `completions` or `correct`.
        aggregate (BoardAggregate): How a board turns a player's completions in a period into a score: `sum` (the
            default: the metric summed over the period's completions), `best` (the player's best single completion of the
            period: a better one replaces it, a worse one changes nothing) or `latest` (the player's most recent completion
            of the period, by `completed_at`: a later run replaces an earlier one even when worse; at the same instant the
            better one stays). A replayed completion id counts once. Best and latest boards break ties by the run
            (`tie_break` `run`; `earliest` on a `duration` board). Set per board in the rules file (`aggregate`); contest
            and league boards are always `sum`.
        time_zone (str): IANA time zone its periods are cut in.
        tie_break (TieBreak): How a board ranks equal scores: `shared` (the default) gives tied players the same
            competition rank (1-2-2-4); `earliest` ranks higher the player who reached the score first (by the
            `completed_at` of the completion that reached it); `fastest` ranks higher the player whose scoring completions
            took less `duration_ms` in total; a scoring completion without `duration_ms` counts as the slowest possible, so
            a player with any ranks after every player timed throughout (among them, fewer untimed completions first, then
            less timed play). A full tie under `earliest` or `fastest` (same score and same second, or same total time and
            untimed count) still shares a rank. `run` is the tie-break of every `best` and `latest` board, and only theirs:
            of equal runs, the faster run (its `duration_ms`) ranks higher, then the run reached first (its `completed_at`,
            to the minute); a run without `duration_ms` counts as the slowest. A `duration` board, whose score already is
            the run's time, breaks ties by `earliest`. Set per `sum` board in the rules file (`tie_break`: `shared`,
            `earliest` or `fastest`); best and latest boards leave it out. Contests and leagues take `shared`, `earliest` or
            `fastest`.
        windows (list[WindowSummary]): Its windows with their current periods.
    """

    board: str
    metric: BoardMetric
    aggregate: BoardAggregate
    time_zone: str
    tie_break: TieBreak
    windows: list[WindowSummary]

    def __repr__(self) -> str:
        """`BoardSummary(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        metric: str = self.metric

        aggregate: str = self.aggregate

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
                "aggregate": aggregate,
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

        aggregate = check_board_aggregate(d.pop("aggregate"))

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
            aggregate=aggregate,
            time_zone=time_zone,
            tie_break=tie_break,
            windows=windows,
        )

        return board_summary
