from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LeagueCohort")


@_attrs_define
class LeagueCohort:
    """One cohort of a league's week.

    Attributes:
        board (str): Its board id (`league:weekly:gold:3`).
        tier (str): Its tier's name.
        cohort (int): Its number in the tier's week.
        players (int): Places taken.
        closed (bool): Whether its week is closed.
    """

    board: str
    tier: str
    cohort: int
    players: int
    closed: bool

    def to_dict(self) -> dict[str, Any]:
        board = self.board

        tier = self.tier

        cohort = self.cohort

        players = self.players

        closed = self.closed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "tier": tier,
                "cohort": cohort,
                "players": players,
                "closed": closed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        board = d.pop("board")

        tier = d.pop("tier")

        cohort = d.pop("cohort")

        players = d.pop("players")

        closed = d.pop("closed")

        league_cohort = cls(
            board=board,
            tier=tier,
            cohort=cohort,
            players=players,
            closed=closed,
        )

        return league_cohort
