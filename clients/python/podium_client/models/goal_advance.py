from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="GoalAdvance")


@_attrs_define(repr=False)
class GoalAdvance:
    """A goal a completion counted toward: for a personal goal the player's progress, for a class goal one group's.

    Attributes:
        goal (str): The goal's id.
        title (str): The goal's title.
        period (str): The goal's period the completion counted in.
        progress (int): The progress right after this completion (a class goal's: at least this, as the group's other
            players add theirs).
        target (int): The goal's target.
        completed (bool): Whether this completion reached the target: true for one completion per player (or group) and
            period.
        group (str | Unset): The group, for a class goal (the progress is the group's).
    """

    goal: str
    title: str
    period: str
    progress: int
    target: int
    completed: bool
    group: str | Unset = UNSET

    def __repr__(self) -> str:
        """`GoalAdvance(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        goal = self.goal

        title = self.title

        period = self.period

        progress = self.progress

        target = self.target

        completed = self.completed

        group = self.group

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "goal": goal,
                "title": title,
                "period": period,
                "progress": progress,
                "target": target,
                "completed": completed,
            }
        )
        if group is not UNSET:
            field_dict["group"] = group

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        goal = d.pop("goal")

        title = d.pop("title")

        period = d.pop("period")

        progress = d.pop("progress")

        target = d.pop("target")

        completed = d.pop("completed")

        group = d.pop("group", UNSET)

        goal_advance = cls(
            goal=goal,
            title=title,
            period=period,
            progress=progress,
            target=target,
            completed=completed,
            group=group,
        )

        return goal_advance
