from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..models.period_close_report_outcome import (
    PeriodCloseReportOutcome,
    check_period_close_report_outcome,
)
from ..types import Unset

if TYPE_CHECKING:
    from ..models.medal_award import MedalAward


T = TypeVar("T", bound="PeriodCloseReport")


@_attrs_define(repr=False)
class PeriodCloseReport:
    """What closing a period did, found or would do.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name.
        outcome (PeriodCloseReportOutcome): `closed`: this call closed it; `already-closed`: it was closed before and
            nothing changed; `dry-run`: nothing was written.
        players (int): Players on the final board.
        medals (list[MedalAward]): Medals awarded (or, in a dry run, that would be), best first; empty for windows that
            award none.
    """

    board: str
    window: LeaderboardWindow
    period: str
    outcome: PeriodCloseReportOutcome
    players: int
    medals: list[MedalAward]

    def __repr__(self) -> str:
        """`PeriodCloseReport(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        outcome: str = self.outcome

        players = self.players

        medals = []
        for medals_item_data in self.medals:
            medals_item = medals_item_data.to_dict()
            medals.append(medals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "outcome": outcome,
                "players": players,
                "medals": medals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.medal_award import MedalAward

        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        outcome = check_period_close_report_outcome(d.pop("outcome"))

        players = d.pop("players")

        medals = []
        _medals = d.pop("medals")
        for medals_item_data in _medals:
            medals_item = MedalAward.from_dict(medals_item_data)

            medals.append(medals_item)

        period_close_report = cls(
            board=board,
            window=window,
            period=period,
            outcome=outcome,
            players=players,
            medals=medals,
        )

        return period_close_report
