from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="LeagueTierSummary")


@_attrs_define(repr=False)
class LeagueTierSummary:
    """One tier's part of a week's close.

    Attributes:
        tier (str):
        title (str):
        cohorts (int):
        players (int):
        promoted (int):
        relegated (int):
        stayed (int):
        medals (int):
    """

    tier: str
    title: str
    cohorts: int
    players: int
    promoted: int
    relegated: int
    stayed: int
    medals: int

    def __repr__(self) -> str:
        """`LeagueTierSummary(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        tier = self.tier

        title = self.title

        cohorts = self.cohorts

        players = self.players

        promoted = self.promoted

        relegated = self.relegated

        stayed = self.stayed

        medals = self.medals

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tier": tier,
                "title": title,
                "cohorts": cohorts,
                "players": players,
                "promoted": promoted,
                "relegated": relegated,
                "stayed": stayed,
                "medals": medals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tier = d.pop("tier")

        title = d.pop("title")

        cohorts = d.pop("cohorts")

        players = d.pop("players")

        promoted = d.pop("promoted")

        relegated = d.pop("relegated")

        stayed = d.pop("stayed")

        medals = d.pop("medals")

        league_tier_summary = cls(
            tier=tier,
            title=title,
            cohorts=cohorts,
            players=players,
            promoted=promoted,
            relegated=relegated,
            stayed=stayed,
            medals=medals,
        )

        return league_tier_summary
