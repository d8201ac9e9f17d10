from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.goal_progress import GoalProgress


T = TypeVar("T", bound="GroupGoals")


@_attrs_define(repr=False)
class GroupGoals:
    """A group's class goals in their periods under way.

    Attributes:
        group (str): The group's name.
        goals (list[GoalProgress]): Its class goals, by id.
    """

    group: str
    goals: list[GoalProgress]

    def __repr__(self) -> str:
        """`GroupGoals(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        group = self.group

        goals = []
        for goals_item_data in self.goals:
            goals_item = goals_item_data.to_dict()
            goals.append(goals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "group": group,
                "goals": goals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.goal_progress import GoalProgress

        d = dict(src_dict)
        group = d.pop("group")

        goals = []
        _goals = d.pop("goals")
        for goals_item_data in _goals:
            goals_item = GoalProgress.from_dict(goals_item_data)

            goals.append(goals_item)

        group_goals = cls(
            group=group,
            goals=goals,
        )

        return group_goals
