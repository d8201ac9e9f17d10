from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.difficulty import Difficulty, check_difficulty
from ..types import UNSET, Unset

T = TypeVar("T", bound="CompletionRecord")


@_attrs_define(repr=False)
class CompletionRecord:
    """A recorded completion.

    Attributes:
        id (str): The client's idempotency key.
        user_id (str): Player id.
        quiz_id (str): Quiz id.
        topic (str): Topic.
        difficulty (Difficulty): How hard the quiz was.
        correct (int): Correct answers.
        total (int): Questions asked.
        completed_at (datetime.datetime): When it was finished.
        groups (list[str]): Groups it counted in.
        points (int): Points it earned.
        recorded_at (datetime.datetime): When Podium recorded it.
        duration_ms (int | Unset): Time taken in milliseconds, when sent.
    """

    id: str
    user_id: str
    quiz_id: str
    topic: str
    difficulty: Difficulty
    correct: int
    total: int
    completed_at: datetime.datetime
    groups: list[str]
    points: int
    recorded_at: datetime.datetime
    duration_ms: int | Unset = UNSET

    def __repr__(self) -> str:
        """`CompletionRecord(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        user_id = self.user_id

        quiz_id = self.quiz_id

        topic = self.topic

        difficulty: str = self.difficulty

        correct = self.correct

        total = self.total

        completed_at = self.completed_at.isoformat()

        groups = self.groups

        points = self.points

        recorded_at = self.recorded_at.isoformat()

        duration_ms = self.duration_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "user_id": user_id,
                "quiz_id": quiz_id,
                "topic": topic,
                "difficulty": difficulty,
                "correct": correct,
                "total": total,
                "completed_at": completed_at,
                "groups": groups,
                "points": points,
                "recorded_at": recorded_at,
            }
        )
        if duration_ms is not UNSET:
            field_dict["duration_ms"] = duration_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        user_id = d.pop("user_id")

        quiz_id = d.pop("quiz_id")

        topic = d.pop("topic")

        difficulty = check_difficulty(d.pop("difficulty"))

        correct = d.pop("correct")

        total = d.pop("total")

        completed_at = datetime.datetime.fromisoformat(d.pop("completed_at"))

        groups = cast(list[str], d.pop("groups"))

        points = d.pop("points")

        recorded_at = datetime.datetime.fromisoformat(d.pop("recorded_at"))

        duration_ms = d.pop("duration_ms", UNSET)

        completion_record = cls(
            id=id,
            user_id=user_id,
            quiz_id=quiz_id,
            topic=topic,
            difficulty=difficulty,
            correct=correct,
            total=total,
            completed_at=completed_at,
            groups=groups,
            points=points,
            recorded_at=recorded_at,
            duration_ms=duration_ms,
        )

        return completion_record
