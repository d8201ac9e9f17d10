from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import Unset

T = TypeVar("T", bound="BoardRank")


@_attrs_define(repr=False)
class BoardRank:
    """A player's place on one board period.

    Attributes:
        board (str): Board id: `global`, `topic:<name>`, `group:<name>`, `quiz:<quiz_id>`, `contest:<id>` or
            `league:<id>:<tier>:<n>`.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name: `all`, `2026-11-21`, `2026-W47` or `2026-11`.
        rank (int): Competition rank: ties share a rank, the next rank skips.
        score (int): The player's score there. In the board's `metric`: on a `duration` board the run's time in
            milliseconds (lower is better), on an `accuracy` board basis points (8750 is 87.5 %).
        players (int): Players on that board period.
    """

    board: str
    window: LeaderboardWindow
    period: str
    rank: int
    score: int
    players: int

    def __repr__(self) -> str:
        """`BoardRank(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        rank = self.rank

        score = self.score

        players = self.players

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "rank": rank,
                "score": score,
                "players": players,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        rank = d.pop("rank")

        score = d.pop("score")

        players = d.pop("players")

        board_rank = cls(
            board=board,
            window=window,
            period=period,
            rank=rank,
            score=score,
            players=players,
        )

        return board_rank
