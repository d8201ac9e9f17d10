from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.goal import Goal


T = TypeVar("T", bound="GoalList")


@_attrs_define(repr=False)
class GoalList:
    """Goals, by id.

    Attributes:
        goals (list[Goal]):
    """

    goals: list[Goal]

    def __repr__(self) -> str:
        """`GoalList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        goals = []
        for goals_item_data in self.goals:
            goals_item = goals_item_data.to_dict()
            goals.append(goals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "goals": goals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.goal import Goal

        d = dict(src_dict)
        goals = []
        _goals = d.pop("goals")
        for goals_item_data in _goals:
            goals_item = Goal.from_dict(goals_item_data)

            goals.append(goals_item)

        goal_list = cls(
            goals=goals,
        )

        return goal_list
