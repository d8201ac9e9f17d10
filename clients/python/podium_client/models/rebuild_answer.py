from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="RebuildAnswer")


@_attrs_define(repr=False)
class RebuildAnswer:
    """What a rankings rebuild wrote.

    Attributes:
        boards (int): Board periods written.
        entries (int): Player entries written.
    """

    boards: int
    entries: int

    def __repr__(self) -> str:
        """`RebuildAnswer(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        boards = self.boards

        entries = self.entries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "boards": boards,
                "entries": entries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        boards = d.pop("boards")

        entries = d.pop("entries")

        rebuild_answer = cls(
            boards=boards,
            entries=entries,
        )

        return rebuild_answer
