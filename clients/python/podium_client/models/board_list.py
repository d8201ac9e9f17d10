from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.board_summary import BoardSummary


T = TypeVar("T", bound="BoardList")


@_attrs_define(repr=False)
class BoardList:
    """The known boards.

    Attributes:
        boards (list[BoardSummary]): Configured boards and every board that has had a score, by id.
        next_cursor (str | Unset): Pass as `cursor` for the next page; absent on the last page.
    """

    boards: list[BoardSummary]
    next_cursor: str | Unset = UNSET

    def __repr__(self) -> str:
        """`BoardList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        boards = []
        for boards_item_data in self.boards:
            boards_item = boards_item_data.to_dict()
            boards.append(boards_item)

        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "boards": boards,
            }
        )
        if next_cursor is not UNSET:
            field_dict["next_cursor"] = next_cursor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.board_summary import BoardSummary

        d = dict(src_dict)
        boards = []
        _boards = d.pop("boards")
        for boards_item_data in _boards:
            boards_item = BoardSummary.from_dict(boards_item_data)

            boards.append(boards_item)

        next_cursor = d.pop("next_cursor", UNSET)

        board_list = cls(
            boards=boards,
            next_cursor=next_cursor,
        )

        return board_list
