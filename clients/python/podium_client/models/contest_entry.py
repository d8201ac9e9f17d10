from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="ContestEntry")


@_attrs_define(repr=False)
class ContestEntry:
    """A player's entry in a contest.

    Attributes:
        contest (str): The contest's id.
        user_id (str): The player, now an entrant.
    """

    contest: str
    user_id: str

    def __repr__(self) -> str:
        """`ContestEntry(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        contest = self.contest

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "contest": contest,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        contest = d.pop("contest")

        user_id = d.pop("user_id")

        contest_entry = cls(
            contest=contest,
            user_id=user_id,
        )

        return contest_entry
