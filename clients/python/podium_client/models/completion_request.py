from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..models.difficulty import Difficulty, check_difficulty
from ..types import UNSET, Unset

T = TypeVar("T", bound="CompletionRequest")


@_attrs_define(repr=False)
class CompletionRequest:
    """One finished quiz. Unknown keys are ignored.

    Attributes:
        id (str): The client's idempotency key: posting the same id and body again replays the first answer.
        user_id (str): Opaque player id; not only dots (`.` and `..` cannot be URL path segments).
        quiz_id (str): The quiz played; where a board rule turns quiz boards on, the completion also counts on board
            `quiz:<quiz_id>`.
        topic (str): The quiz's topic; the completion also counts on board `topic:<topic>`.
        difficulty (Difficulty): How hard the quiz was.
        correct (int): Correct answers, at most `total`.
        total (int): Questions asked.
        duration_ms (int | None | Unset): Time taken, in milliseconds.
        completed_at (datetime.datetime | None | Unset): When the quiz was finished; the time of receipt when absent. At
            most 5 minutes ahead and 30 days old (configurable).
        groups (list[str] | None | Unset): Classes, schools or teams the player ranks in (boards `group:<name>`);
            duplicates are ignored.
        display_name (None | str | Unset): Name shown on boards; kept until changed. 1 to 64 Unicode scalars, not only
            whitespace, with no control characters and no invisible format characters (bidi controls, zero-width spaces,
            tags), except a zero-width joiner or non-joiner (U+200D, U+200C) after a non-ASCII character, as in emoji
            sequences and Persian or Indic names; at most 4 combining marks (variation selectors included) on one character.
    """

    id: str
    user_id: str
    quiz_id: str
    topic: str
    difficulty: Difficulty
    correct: int
    total: int
    duration_ms: int | None | Unset = UNSET
    completed_at: datetime.datetime | None | Unset = UNSET
    groups: list[str] | None | Unset = UNSET
    display_name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`CompletionRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        duration_ms: int | None | Unset
        if isinstance(self.duration_ms, Unset):
            duration_ms = UNSET
        else:
            duration_ms = self.duration_ms

        completed_at: None | str | Unset
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        elif isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        groups: list[str] | None | Unset
        if isinstance(self.groups, Unset):
            groups = UNSET
        elif isinstance(self.groups, list):
            groups = self.groups

        else:
            groups = self.groups

        display_name: None | str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "user_id": user_id,
                "quiz_id": quiz_id,
                "topic": topic,
                "difficulty": difficulty,
                "correct": correct,
                "total": total,
            }
        )
        if duration_ms is not UNSET:
            field_dict["duration_ms"] = duration_ms
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at
        if groups is not UNSET:
            field_dict["groups"] = groups
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

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

        def _parse_duration_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        duration_ms = _parse_duration_ms(d.pop("duration_ms", UNSET))

        def _parse_completed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        completed_at = _parse_completed_at(d.pop("completed_at", UNSET))

        def _parse_groups(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                groups_type_0 = cast(list[str], data)

                return groups_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        groups = _parse_groups(d.pop("groups", UNSET))

        def _parse_display_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))

        completion_request = cls(
            id=id,
            user_id=user_id,
            quiz_id=quiz_id,
            topic=topic,
            difficulty=difficulty,
            correct=correct,
            total=total,
            duration_ms=duration_ms,
            completed_at=completed_at,
            groups=groups,
            display_name=display_name,
        )

        completion_request.additional_properties = d
        return completion_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
