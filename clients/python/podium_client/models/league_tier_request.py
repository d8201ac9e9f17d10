from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="LeagueTierRequest")


@_attrs_define(repr=False)
class LeagueTierRequest:
    """One tier as asked for; `up` and `down` default to the league's.

    Attributes:
        name (str): The tier's name in board ids (`gold`).
        title (str | Unset): The name players see; the name when left out.
        up (int | Unset): How many of each cohort move up (the league's `up` when left out; must be 0 or absent in the
            top tier).
        down (int | Unset): How many of each cohort move down (the league's `down` when left out; must be 0 or absent in
            the bottom tier).
    """

    name: str
    title: str | Unset = UNSET
    up: int | Unset = UNSET
    down: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`LeagueTierRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title
        if up is not UNSET:
            field_dict["up"] = up
        if down is not UNSET:
            field_dict["down"] = down

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        title = d.pop("title", UNSET)

        up = d.pop("up", UNSET)

        down = d.pop("down", UNSET)

        league_tier_request = cls(
            name=name,
            title=title,
            up=up,
            down=down,
        )

        league_tier_request.additional_properties = d
        return league_tier_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
