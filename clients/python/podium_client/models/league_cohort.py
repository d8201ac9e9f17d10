from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="LeagueCohort")


@_attrs_define(repr=False)
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

    def __repr__(self) -> str:
        """`LeagueCohort(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
