from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.compared_period import ComparedPeriod


T = TypeVar("T", bound="PeriodComparison")


@_attrs_define(repr=False)
class PeriodComparison:
    """A player's or a group's standing on two board periods.

    Attributes:
        a (ComparedPeriod): One side of a comparison.
        b (ComparedPeriod): One side of a comparison.
        score_change (int): `b`'s score less `a`'s.
        user_id (str | Unset): The player compared.
        group (str | Unset): The group compared.
        rank_change (int | Unset): Places climbed from `a` to `b` (negative when it fell); absent unless ranked on both.
    """

    a: ComparedPeriod
    b: ComparedPeriod
    score_change: int
    user_id: str | Unset = UNSET
    group: str | Unset = UNSET
    rank_change: int | Unset = UNSET

    def __repr__(self) -> str:
        """`PeriodComparison(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        a = self.a.to_dict()

        b = self.b.to_dict()

        score_change = self.score_change

        user_id = self.user_id

        group = self.group

        rank_change = self.rank_change

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "a": a,
                "b": b,
                "score_change": score_change,
            }
        )
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if group is not UNSET:
            field_dict["group"] = group
        if rank_change is not UNSET:
            field_dict["rank_change"] = rank_change

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.compared_period import ComparedPeriod

        d = dict(src_dict)
        a = ComparedPeriod.from_dict(d.pop("a"))

        b = ComparedPeriod.from_dict(d.pop("b"))

        score_change = d.pop("score_change")

        user_id = d.pop("user_id", UNSET)

        group = d.pop("group", UNSET)

        rank_change = d.pop("rank_change", UNSET)

        period_comparison = cls(
            a=a,
            b=b,
            score_change=score_change,
            user_id=user_id,
            group=group,
            rank_change=rank_change,
        )

        return period_comparison
