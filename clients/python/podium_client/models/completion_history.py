from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.completion_record import CompletionRecord


T = TypeVar("T", bound="CompletionHistory")


@_attrs_define(repr=False)
class CompletionHistory:
    """One page of a player's history.

    Attributes:
        items (list[CompletionRecord]): Completions, newest first.
        next_cursor (str | Unset): Pass as `cursor` for the next page; absent on the last page.
    """

    items: list[CompletionRecord]
    next_cursor: str | Unset = UNSET

    def __repr__(self) -> str:
        """`CompletionHistory(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
            }
        )
        if next_cursor is not UNSET:
            field_dict["next_cursor"] = next_cursor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.completion_record import CompletionRecord

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = CompletionRecord.from_dict(items_item_data)

            items.append(items_item)

        next_cursor = d.pop("next_cursor", UNSET)

        completion_history = cls(
            items=items,
            next_cursor=next_cursor,
        )

        return completion_history
