from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..models.goal_kind import GoalKind, check_goal_kind
from ..models.goal_measure import GoalMeasure, check_goal_measure
from ..models.goal_window import GoalWindow, check_goal_window
from ..models.time_zone import TimeZone, check_time_zone
from ..types import UNSET, Unset

T = TypeVar("T", bound="GoalRequest")


@_attrs_define(repr=False)
class GoalRequest:
    """A new goal. Its days and weeks are cut in `time_zone`. A `class` goal's `scope` lists groups, each of which keeps
    its own progress (the schema's `if`/`then`): a class goal of `global` or a topic is refused (400, field `scope`).

        Attributes:
            id (str): The id.
            title (str): The title players see: 1-80 Unicode scalars, not only whitespace, without control characters.
            scope (list[Literal['global']] | list[str]): Which completions count: `["global"]`, one `["topic:<name>"]`, or
                1-50 distinct `["group:<name>", ...]` (a completion posted for any of them). A class goal lists groups: each
                keeps its own progress.
            measure (GoalMeasure): What a goal counts: `completions`; `points` earned; `correct` answers; `perfect`
                completions (every answer right).
            target (int): How much of `measure` in one period reaches the goal.
            window (GoalWindow): The period a goal resets with: `day`, or `week` (an ISO week, Monday 00:00 to the next
                Monday 00:00), in the goal's zone.
            kind (GoalKind | Unset): Whose progress a goal keeps: `personal`, each player's own ("3 quizzes this week");
                `class`, each group's, which all its players add to ("our class answers 500 questions right this week").
            time_zone (TimeZone | Unset): A time zone of the tz database the server reads (tzdata 2025b listed here): any
                zone or alias (`Asia/Kolkata` and its old name `Asia/Calcutta`, `US/Eastern`, `UTC`, `Etc/UTC`, `EST5EDT`).
                Refused: the fixed-offset zones `Etc/GMT+N` and `Etc/GMT-N` (N > 0), whose signs are the reverse of what a
                reader expects, `Factory`, and names outside the database (`GMT+5`, `UTC+1`). A server on a later tz database
                also accepts the zones added since.
    """

    id: str
    title: str
    scope: list[Literal["global"]] | list[str]
    measure: GoalMeasure
    target: int
    window: GoalWindow
    kind: GoalKind | Unset = UNSET
    time_zone: TimeZone | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`GoalRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        scope: list[Literal["global"]] | list[str]
        if isinstance(self.scope, list):
            scope = self.scope

        else:
            scope = self.scope

        measure: str = self.measure

        target = self.target

        window: str = self.window

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind

        time_zone: str | Unset = UNSET
        if not isinstance(self.time_zone, Unset):
            time_zone = self.time_zone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "title": title,
                "scope": scope,
                "measure": measure,
                "target": target,
                "window": window,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        def _parse_scope(data: object) -> list[Literal["global"]] | list[str]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scope_type_0 = []
                _scope_type_0 = data
                for scope_type_0_item_data in _scope_type_0:
                    scope_type_0_item = cast(Literal["global"], scope_type_0_item_data)
                    if scope_type_0_item != "global":
                        raise ValueError(
                            f"scope_type_0_item must match const 'global', got '{scope_type_0_item}'"
                        )
                    scope_type_0.append(scope_type_0_item)

                return scope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            scope_type_1 = cast(list[str], data)

            return scope_type_1

        scope = _parse_scope(d.pop("scope"))

        measure = check_goal_measure(d.pop("measure"))

        target = d.pop("target")

        window = check_goal_window(d.pop("window"))

        _kind = d.pop("kind", UNSET)
        kind: GoalKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = check_goal_kind(_kind)

        _time_zone = d.pop("time_zone", UNSET)
        time_zone: TimeZone | Unset
        if isinstance(_time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = check_time_zone(_time_zone)

        goal_request = cls(
            id=id,
            title=title,
            scope=scope,
            measure=measure,
            target=target,
            window=window,
            kind=kind,
            time_zone=time_zone,
        )

        goal_request.additional_properties = d
        return goal_request

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
