from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.goal_kind import GoalKind, check_goal_kind
from ..models.goal_measure import GoalMeasure, check_goal_measure
from ..models.goal_status import GoalStatus, check_goal_status
from ..models.goal_window import GoalWindow, check_goal_window
from ..types import UNSET, Unset

T = TypeVar("T", bound="Goal")


@_attrs_define(repr=False)
class Goal:
    """A goal.

    Attributes:
        id (str): The id.
        title (str): The title players see.
        kind (GoalKind): Whose progress a goal keeps: `personal`, each player's own ("3 quizzes this week"); `class`,
            each group's, which all its players add to ("our class answers 500 questions right this week").
        scope (list[str]): Board ids whose completions count.
        measure (GoalMeasure): What a goal counts: `completions`; `points` earned; `correct` answers; `perfect`
            completions (every answer right).
        target (int): How much reaches it in one period.
        window (GoalWindow): The period a goal resets with: `day`, or `week` (an ISO week, Monday 00:00 to the next
            Monday 00:00), in the goal's zone.
        time_zone (str): The zone its days and weeks are cut in.
        status (GoalStatus): `paused`: no completion recorded counts until it is resumed; `ended`: nothing played since
            its end counts.
        created_at (datetime.datetime): When it was created: completions played before count nowhere.
        period (str): The period under way in its zone (`2026-12-06`, `2026-W49`).
        ends_at (datetime.datetime): The first instant after the period under way.
        paused_at (datetime.datetime | Unset): When it was paused (while it is).
        ended_at (datetime.datetime | Unset): When it ended.
    """

    id: str
    title: str
    kind: GoalKind
    scope: list[str]
    measure: GoalMeasure
    target: int
    window: GoalWindow
    time_zone: str
    status: GoalStatus
    created_at: datetime.datetime
    period: str
    ends_at: datetime.datetime
    paused_at: datetime.datetime | Unset = UNSET
    ended_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`Goal(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        id = self.id

        title = self.title

        kind: str = self.kind

        scope = self.scope

        measure: str = self.measure

        target = self.target

        window: str = self.window

        time_zone = self.time_zone

        status: str = self.status

        created_at = self.created_at.isoformat()

        period = self.period

        ends_at = self.ends_at.isoformat()

        paused_at: str | Unset = UNSET
        if not isinstance(self.paused_at, Unset):
            paused_at = self.paused_at.isoformat()

        ended_at: str | Unset = UNSET
        if not isinstance(self.ended_at, Unset):
            ended_at = self.ended_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "kind": kind,
                "scope": scope,
                "measure": measure,
                "target": target,
                "window": window,
                "time_zone": time_zone,
                "status": status,
                "created_at": created_at,
                "period": period,
                "ends_at": ends_at,
            }
        )
        if paused_at is not UNSET:
            field_dict["paused_at"] = paused_at
        if ended_at is not UNSET:
            field_dict["ended_at"] = ended_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        kind = check_goal_kind(d.pop("kind"))

        scope = cast(list[str], d.pop("scope"))

        measure = check_goal_measure(d.pop("measure"))

        target = d.pop("target")

        window = check_goal_window(d.pop("window"))

        time_zone = d.pop("time_zone")

        status = check_goal_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        period = d.pop("period")

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        _paused_at = d.pop("paused_at", UNSET)
        paused_at: datetime.datetime | Unset
        if isinstance(_paused_at, Unset):
            paused_at = UNSET
        else:
            paused_at = datetime.datetime.fromisoformat(_paused_at)

        _ended_at = d.pop("ended_at", UNSET)
        ended_at: datetime.datetime | Unset
        if isinstance(_ended_at, Unset):
            ended_at = UNSET
        else:
            ended_at = datetime.datetime.fromisoformat(_ended_at)

        goal = cls(
            id=id,
            title=title,
            kind=kind,
            scope=scope,
            measure=measure,
            target=target,
            window=window,
            time_zone=time_zone,
            status=status,
            created_at=created_at,
            period=period,
            ends_at=ends_at,
            paused_at=paused_at,
            ended_at=ended_at,
        )

        return goal
