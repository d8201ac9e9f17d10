from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contest import Contest


T = TypeVar("T", bound="ContestList")


@_attrs_define(repr=False)
class ContestList:
    """A page of contests, most relevant first.

    Attributes:
        contests (list[Contest]): The contests of this page.
        total (int): How many contests match the query, on every page.
        next_cursor (str | Unset): Send it back as `cursor` for the next page; absent on the last page.
    """

    contests: list[Contest]
    total: int
    next_cursor: str | Unset = UNSET

    def __repr__(self) -> str:
        """`ContestList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        contests = []
        for contests_item_data in self.contests:
            contests_item = contests_item_data.to_dict()
            contests.append(contests_item)

        total = self.total

        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "contests": contests,
                "total": total,
            }
        )
        if next_cursor is not UNSET:
            field_dict["next_cursor"] = next_cursor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contest import Contest

        d = dict(src_dict)
        contests = []
        _contests = d.pop("contests")
        for contests_item_data in _contests:
            contests_item = Contest.from_dict(contests_item_data)

            contests.append(contests_item)

        total = d.pop("total")

        next_cursor = d.pop("next_cursor", UNSET)

        contest_list = cls(
            contests=contests,
            total=total,
            next_cursor=next_cursor,
        )

        return contest_list
