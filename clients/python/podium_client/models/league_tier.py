from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="LeagueTier")


@_attrs_define(repr=False)
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

    def __repr__(self) -> str:
        """`LeagueTier(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
