from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.goal_kind import GoalKind, check_goal_kind
from ..models.goal_measure import GoalMeasure, check_goal_measure
from ..models.goal_window import GoalWindow, check_goal_window
from ..types import UNSET, Unset

T = TypeVar("T", bound="GoalProgress")


@_attrs_define(repr=False)
class GoalProgress:
    """A goal's progress in its period under way, for one player (personal) or group (class).

    Attributes:
        goal (str): The goal's id.
        title (str): The goal's title.
        kind (GoalKind): Whose progress a goal keeps: `personal`, each player's own ("3 quizzes this week"); `class`,
            each group's, which all its players add to ("our class answers 500 questions right this week").
        measure (GoalMeasure): What a goal counts: `completions`; `points` earned; `correct` answers; `perfect`
            completions (every answer right).
        window (GoalWindow): The period a goal resets with: `day`, or `week` (an ISO week, Monday 00:00 to the next
            Monday 00:00), in the goal's zone.
        period (str): The period under way (`2026-12-06`, `2026-W49`).
        progress (int): How far it is in the period (0 before anything counted); may pass the target.
        target (int): The goal's target.
        ends_at (datetime.datetime): The first instant after the period.
        seconds_left (int): Seconds until the period ends.
        group (str | Unset): The group, for a class goal.
        completed_at (datetime.datetime | Unset): When the target was reached in this period (absent until it is).
    """

    goal: str
    title: str
    kind: GoalKind
    measure: GoalMeasure
    window: GoalWindow
    period: str
    progress: int
    target: int
    ends_at: datetime.datetime
    seconds_left: int
    group: str | Unset = UNSET
    completed_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`GoalProgress(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        kind: str = self.kind

        measure: str = self.measure

        window: str = self.window

        period = self.period

        progress = self.progress

        target = self.target

        ends_at = self.ends_at.isoformat()

        seconds_left = self.seconds_left

        group = self.group

        completed_at: str | Unset = UNSET
        if not isinstance(self.completed_at, Unset):
            completed_at = self.completed_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "goal": goal,
                "title": title,
                "kind": kind,
                "measure": measure,
                "window": window,
                "period": period,
                "progress": progress,
                "target": target,
                "ends_at": ends_at,
                "seconds_left": seconds_left,
            }
        )
        if group is not UNSET:
            field_dict["group"] = group
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        goal = d.pop("goal")

        title = d.pop("title")

        kind = check_goal_kind(d.pop("kind"))

        measure = check_goal_measure(d.pop("measure"))

        window = check_goal_window(d.pop("window"))

        period = d.pop("period")

        progress = d.pop("progress")

        target = d.pop("target")

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        seconds_left = d.pop("seconds_left")

        group = d.pop("group", UNSET)

        _completed_at = d.pop("completed_at", UNSET)
        completed_at: datetime.datetime | Unset
        if isinstance(_completed_at, Unset):
            completed_at = UNSET
        else:
            completed_at = datetime.datetime.fromisoformat(_completed_at)

        goal_progress = cls(
            goal=goal,
            title=title,
            kind=kind,
            measure=measure,
            window=window,
            period=period,
            progress=progress,
            target=target,
            ends_at=ends_at,
            seconds_left=seconds_left,
            group=group,
            completed_at=completed_at,
        )

        return goal_progress
