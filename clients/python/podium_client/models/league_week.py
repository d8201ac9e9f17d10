from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="LeagueWeek")


@_attrs_define(repr=False)
class LeagueWeek:
    """A league week.

    Attributes:
        period (str): Its name (`2026-W48`), the period of its cohorts' boards.
        starts_at (datetime.datetime): Its first instant.
        ends_at (datetime.datetime): The first instant after it.
    """

    period: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime

    def __repr__(self) -> str:
        """`LeagueWeek(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        period = self.period

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "period": period,
                "starts_at": starts_at,
                "ends_at": ends_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        period = d.pop("period")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        league_week = cls(
            period=period,
            starts_at=starts_at,
            ends_at=ends_at,
        )

        return league_week
