from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="Streak")


@_attrs_define(repr=False)
class Streak:
    """Consecutive local days (the player's time zone) with at least one completion. The current run counts while its last
    day is today or yesterday.

        Attributes:
            current (int): Days in the run that is still alive; 0 once a whole local day passed without a completion.
            longest (int): The longest run ever.
    """

    current: int
    longest: int

    def __repr__(self) -> str:
        """`Streak(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        current = self.current

        longest = self.longest

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "current": current,
                "longest": longest,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        current = d.pop("current")

        longest = d.pop("longest")

        streak = cls(
            current=current,
            longest=longest,
        )

        return streak
