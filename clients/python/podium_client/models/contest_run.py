from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="ContestRun")


@_attrs_define(repr=False)
class ContestRun:
    """One run of a contest.

    Attributes:
        period (str): Its period name, its start in UTC (`20261127T1400Z`): `?period=` on the board's routes.
        starts_at (datetime.datetime): When it starts.
        ends_at (datetime.datetime): When it ends (exclusive).
        closes_at (datetime.datetime): When it closes: its end plus the close grace.
        closed_at (datetime.datetime | Unset): When it was closed, once it was: early by an admin, or by `close-periods`
            after its end plus grace.
    """

    period: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    closes_at: datetime.datetime
    closed_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`ContestRun(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        closes_at = self.closes_at.isoformat()

        closed_at: str | Unset = UNSET
        if not isinstance(self.closed_at, Unset):
            closed_at = self.closed_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "period": period,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "closes_at": closes_at,
            }
        )
        if closed_at is not UNSET:
            field_dict["closed_at"] = closed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        period = d.pop("period")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        closes_at = datetime.datetime.fromisoformat(d.pop("closes_at"))

        _closed_at = d.pop("closed_at", UNSET)
        closed_at: datetime.datetime | Unset
        if isinstance(_closed_at, Unset):
            closed_at = UNSET
        else:
            closed_at = datetime.datetime.fromisoformat(_closed_at)

        contest_run = cls(
            period=period,
            starts_at=starts_at,
            ends_at=ends_at,
            closes_at=closes_at,
            closed_at=closed_at,
        )

        return contest_run
