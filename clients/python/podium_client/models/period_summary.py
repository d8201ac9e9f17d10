from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.period_summary_status import (
    PeriodSummaryStatus,
    check_period_summary_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.medal_award import MedalAward


T = TypeVar("T", bound="PeriodSummary")


@_attrs_define(repr=False)
class PeriodSummary:
    """One period of a board window.

    Attributes:
        period (str): Period name.
        starts_at (datetime.datetime): Its first instant.
        ends_at (datetime.datetime): Its end, exclusive.
        closes_at (datetime.datetime): When it closes: its end plus the grace for late completions.
        status (PeriodSummaryStatus): `open` before its close time, `due` after it while not closed yet, `closed` once
            closed.
        players (int): Players on it (on its final board once closed).
        medals (list[MedalAward]): Medals it awarded, best first; empty until it is closed and for windows that award
            none.
        closed_at (datetime.datetime | Unset): When it was closed; absent until then.
    """

    period: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    closes_at: datetime.datetime
    status: PeriodSummaryStatus
    players: int
    medals: list[MedalAward]
    closed_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`PeriodSummary(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        status: str = self.status

        players = self.players

        medals = []
        for medals_item_data in self.medals:
            medals_item = medals_item_data.to_dict()
            medals.append(medals_item)

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
                "status": status,
                "players": players,
                "medals": medals,
            }
        )
        if closed_at is not UNSET:
            field_dict["closed_at"] = closed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.medal_award import MedalAward

        d = dict(src_dict)
        period = d.pop("period")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        closes_at = datetime.datetime.fromisoformat(d.pop("closes_at"))

        status = check_period_summary_status(d.pop("status"))

        players = d.pop("players")

        medals = []
        _medals = d.pop("medals")
        for medals_item_data in _medals:
            medals_item = MedalAward.from_dict(medals_item_data)

            medals.append(medals_item)

        _closed_at = d.pop("closed_at", UNSET)
        closed_at: datetime.datetime | Unset
        if isinstance(_closed_at, Unset):
            closed_at = UNSET
        else:
            closed_at = datetime.datetime.fromisoformat(_closed_at)

        period_summary = cls(
            period=period,
            starts_at=starts_at,
            ends_at=ends_at,
            closes_at=closes_at,
            status=status,
            players=players,
            medals=medals,
            closed_at=closed_at,
        )

        return period_summary
