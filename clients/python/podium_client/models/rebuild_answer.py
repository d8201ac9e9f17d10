from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RebuildAnswer")


@_attrs_define
class RebuildAnswer:
    """What a rankings rebuild wrote.

    Attributes:
        boards (int): Board periods written.
        entries (int): Player entries written.
    """

    boards: int
    entries: int

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
