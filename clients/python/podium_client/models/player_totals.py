from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="PlayerTotals")


@_attrs_define(repr=False)
class PlayerTotals:
    """A player's running totals.

    Attributes:
        points (int): Points earned in all.
        completions (int): Completions (games played).
        correct_answers (int): Correct answers in all.
        total_answers (int): Questions answered in all.
        correct_percent (float): Correct answers in percent, one decimal; 0 when nothing was answered.
        incorrect_percent (float): Incorrect answers in percent, one decimal.
    """

    points: int
    completions: int
    correct_answers: int
    total_answers: int
    correct_percent: float
    incorrect_percent: float

    def __repr__(self) -> str:
        """`PlayerTotals(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        points = self.points

        completions = self.completions

        correct_answers = self.correct_answers

        total_answers = self.total_answers

        correct_percent = self.correct_percent

        incorrect_percent = self.incorrect_percent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "points": points,
                "completions": completions,
                "correct_answers": correct_answers,
                "total_answers": total_answers,
                "correct_percent": correct_percent,
                "incorrect_percent": incorrect_percent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        points = d.pop("points")

        completions = d.pop("completions")

        correct_answers = d.pop("correct_answers")

        total_answers = d.pop("total_answers")

        correct_percent = d.pop("correct_percent")

        incorrect_percent = d.pop("incorrect_percent")

        player_totals = cls(
            points=points,
            completions=completions,
            correct_answers=correct_answers,
            total_answers=total_answers,
            correct_percent=correct_percent,
            incorrect_percent=incorrect_percent,
        )

        return player_totals
