from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="LeagueCohortPage")


@_attrs_define(repr=False)
class LeagueCohortPage:
    """On a league cohort's board: its league and tier, and how many of it move up and down at the close (the display draws
    a line under the promotion zone and above the relegation zone).

        Attributes:
            league (str): The league's id.
            name (str): The league's name.
            tier (str): The tier's name.
            tier_title (str): The tier's title.
            cohort (int): The cohort's number in its tier's week.
            promotion (int): How many move up now: ranks 1 to this, the tier's `up` for a full cohort and in proportion
                (rounded up) for one not full; 0 in the top tier.
            relegation (int): How many move down now: the last this many places, the tier's `down` for a full cohort and in
                proportion (rounded down) for one not full; 0 in the bottom tier.
    """

    league: str
    name: str
    tier: str
    tier_title: str
    cohort: int
    promotion: int
    relegation: int

    def __repr__(self) -> str:
        """`LeagueCohortPage(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        league = self.league

        name = self.name

        tier = self.tier

        tier_title = self.tier_title

        cohort = self.cohort

        promotion = self.promotion

        relegation = self.relegation

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "league": league,
                "name": name,
                "tier": tier,
                "tier_title": tier_title,
                "cohort": cohort,
                "promotion": promotion,
                "relegation": relegation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        league = d.pop("league")

        name = d.pop("name")

        tier = d.pop("tier")

        tier_title = d.pop("tier_title")

        cohort = d.pop("cohort")

        promotion = d.pop("promotion")

        relegation = d.pop("relegation")

        league_cohort_page = cls(
            league=league,
            name=name,
            tier=tier,
            tier_title=tier_title,
            cohort=cohort,
            promotion=promotion,
            relegation=relegation,
        )

        return league_cohort_page
