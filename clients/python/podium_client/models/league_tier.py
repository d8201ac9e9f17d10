from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="LeagueTier")


@_attrs_define
class LeagueTier:
    """One tier of a league and how many of each of its cohorts move at a close.

    Attributes:
        name (str): The tier's name in board ids.
        title (str): The name players see.
        up (int): How many of each cohort move up a tier (0 in the top tier).
        down (int): How many of each cohort move down a tier (0 in the bottom tier).
    """

    name: str
    title: str
    up: int
    down: int

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        title = self.title

        up = self.up

        down = self.down

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "title": title,
                "up": up,
                "down": down,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        title = d.pop("title")

        up = d.pop("up")

        down = d.pop("down")

        league_tier = cls(
            name=name,
            title=title,
            up=up,
            down=down,
        )

        return league_tier
