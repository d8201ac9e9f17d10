from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..models.rank_point_kind import RankPointKind, check_rank_point_kind
from ..types import Unset

T = TypeVar("T", bound="RankPoint")


@_attrs_define(repr=False)
class RankPoint:
    """A player's place in one snapshot.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name.
        kind (RankPointKind): The snapshot's kind: `scheduled` or `final`.
        taken_at (datetime.datetime): When the snapshot was taken.
        rank (int): Competition rank then.
        score (int): Score then. In the board's `metric`: on a `duration` board the run's time in milliseconds (lower is
            better), on an `accuracy` board basis points (8750 is 87.5 %).
        players (int): Players on the board period then.
    """

    board: str
    window: LeaderboardWindow
    period: str
    kind: RankPointKind
    taken_at: datetime.datetime
    rank: int
    score: int
    players: int

    def __repr__(self) -> str:
        """`RankPoint(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        kind: str = self.kind

        taken_at = self.taken_at.isoformat()

        rank = self.rank

        score = self.score

        players = self.players

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "kind": kind,
                "taken_at": taken_at,
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

        kind = check_rank_point_kind(d.pop("kind"))

        taken_at = datetime.datetime.fromisoformat(d.pop("taken_at"))

        rank = d.pop("rank")

        score = d.pop("score")

        players = d.pop("players")

        rank_point = cls(
            board=board,
            window=window,
            period=period,
            kind=kind,
            taken_at=taken_at,
            rank=rank,
            score=score,
            players=players,
        )

        return rank_point
