from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="TopicStatistics")


@_attrs_define(repr=False)
class TopicStatistics:
    """A player's statistics in one topic.

    Attributes:
        topic (str): Topic.
        completions (int): Completions in it.
        correct_answers (int): Correct answers in it.
        total_answers (int): Questions answered in it.
        average_accuracy_percent (float): Mean of each completion's accuracy, percent, one decimal.
        best_accuracy_percent (float): Best single accuracy, percent, one decimal.
        best_points (int): Most points from one completion.
        last_played_at (datetime.datetime): Time of the latest completion.
    """

    topic: str
    completions: int
    correct_answers: int
    total_answers: int
    average_accuracy_percent: float
    best_accuracy_percent: float
    best_points: int
    last_played_at: datetime.datetime

    def __repr__(self) -> str:
        """`TopicStatistics(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        topic = self.topic

        completions = self.completions

        correct_answers = self.correct_answers

        total_answers = self.total_answers

        average_accuracy_percent = self.average_accuracy_percent

        best_accuracy_percent = self.best_accuracy_percent

        best_points = self.best_points

        last_played_at = self.last_played_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "topic": topic,
                "completions": completions,
                "correct_answers": correct_answers,
                "total_answers": total_answers,
                "average_accuracy_percent": average_accuracy_percent,
                "best_accuracy_percent": best_accuracy_percent,
                "best_points": best_points,
                "last_played_at": last_played_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        topic = d.pop("topic")

        completions = d.pop("completions")

        correct_answers = d.pop("correct_answers")

        total_answers = d.pop("total_answers")

        average_accuracy_percent = d.pop("average_accuracy_percent")

        best_accuracy_percent = d.pop("best_accuracy_percent")

        best_points = d.pop("best_points")

        last_played_at = datetime.datetime.fromisoformat(d.pop("last_played_at"))

        topic_statistics = cls(
            topic=topic,
            completions=completions,
            correct_answers=correct_answers,
            total_answers=total_answers,
            average_accuracy_percent=average_accuracy_percent,
            best_accuracy_percent=best_accuracy_percent,
            best_points=best_points,
            last_played_at=last_played_at,
        )

        return topic_statistics
