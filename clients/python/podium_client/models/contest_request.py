from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.contest_request_entry import (
    ContestRequestEntry,
    check_contest_request_entry,
)
from ..models.sum_metric import SumMetric, check_sum_metric
from ..models.sum_tie_break import SumTieBreak, check_sum_tie_break
from ..models.time_zone import TimeZone, check_time_zone
from ..types import UNSET, Unset

T = TypeVar("T", bound="ContestRequest")


@_attrs_define(repr=False)
class ContestRequest:
    """A new contest.

    Attributes:
        id (str): The id: its board is `contest:<id>`.
        title (str): The title displays show: 1-80 Unicode scalars, not only whitespace, without control characters.
        scope (list[Literal['global']] | list[str]): Which completions count: `["global"]`, one `["topic:<name>"]`, or
            1-50 distinct `["group:<name>", ...]` (a completion posted for any of them).
        starts_at (datetime.datetime | Unset): One run: its start. Recurring: no run starts before it (optional). A
            whole minute.
        ends_at (datetime.datetime | Unset): One run: its end (1 minute to 366 days after the start, and still ahead).
            Recurring: no run starts at or after it (optional).
        cron (str | Unset): Recurring: when runs start, five cron fields read in `time_zone` (`0 14 * * 5`: Fridays
            14:00), as the scheduler reads them; with `duration_minutes`. Leave out for one run.
        duration_minutes (int | Unset): Recurring: how long each run lasts, 1-527040 minutes (a run also ends when the
            next starts).
        time_zone (TimeZone | Unset): A time zone of the tz database the server reads (tzdata 2025b listed here): any
            zone or alias (`Asia/Kolkata` and its old name `Asia/Calcutta`, `US/Eastern`, `UTC`, `Etc/UTC`, `EST5EDT`).
            Refused: the fixed-offset zones `Etc/GMT+N` and `Etc/GMT-N` (N > 0), whose signs are the reverse of what a
            reader expects, `Factory`, and names outside the database (`GMT+5`, `UTC+1`). A server on a later tz database
            also accepts the zones added since.
        entry (ContestRequestEntry | Unset): `open`: every player in scope (the default); `join`: only players who
            joined. Default: 'open'.
        max_players (int | Unset): `join` contests only: the most players who may join.
        metric (SumMetric | Unset): What a contest's or a league's boards rank: they rank sums, so of the `BoardMetric`s
            only `points`, `completions` and `correct` (the single-run metrics `accuracy` and `duration` are refused, 400 on
            `metric`).
        tie_break (SumTieBreak | Unset): How a contest's or a league's equal scores rank: the `TieBreak`s of sum boards
            (`run` belongs to best and latest boards and is refused, 400 on `tie_break`).
        medals (bool | Unset): Whether each run awards gold, silver and bronze when it closes. Default: True.
    """

    id: str
    title: str
    scope: list[Literal["global"]] | list[str]
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    cron: str | Unset = UNSET
    duration_minutes: int | Unset = UNSET
    time_zone: TimeZone | Unset = UNSET
    entry: ContestRequestEntry | Unset = "open"
    max_players: int | Unset = UNSET
    metric: SumMetric | Unset = UNSET
    tie_break: SumTieBreak | Unset = UNSET
    medals: bool | Unset = True

    def __repr__(self) -> str:
        """`ContestRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()

        ends_at: str | Unset = UNSET
        if not isinstance(self.ends_at, Unset):
            ends_at = self.ends_at.isoformat()

        cron = self.cron

        duration_minutes = self.duration_minutes

        time_zone: str | Unset = UNSET
        if not isinstance(self.time_zone, Unset):
            time_zone = self.time_zone

        entry: str | Unset = UNSET
        if not isinstance(self.entry, Unset):
            entry = self.entry

        max_players = self.max_players

        metric: str | Unset = UNSET
        if not isinstance(self.metric, Unset):
            metric = self.metric

        tie_break: str | Unset = UNSET
        if not isinstance(self.tie_break, Unset):
            tie_break = self.tie_break

        medals = self.medals

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "scope": scope,
            }
        )
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if cron is not UNSET:
            field_dict["cron"] = cron
        if duration_minutes is not UNSET:
            field_dict["duration_minutes"] = duration_minutes
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone
        if entry is not UNSET:
            field_dict["entry"] = entry
        if max_players is not UNSET:
            field_dict["max_players"] = max_players
        if metric is not UNSET:
            field_dict["metric"] = metric
        if tie_break is not UNSET:
            field_dict["tie_break"] = tie_break
        if medals is not UNSET:
            field_dict["medals"] = medals

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

        _starts_at = d.pop("starts_at", UNSET)
        starts_at: datetime.datetime | Unset
        if isinstance(_starts_at, Unset):
            starts_at = UNSET
        else:
            starts_at = datetime.datetime.fromisoformat(_starts_at)

        _ends_at = d.pop("ends_at", UNSET)
        ends_at: datetime.datetime | Unset
        if isinstance(_ends_at, Unset):
            ends_at = UNSET
        else:
            ends_at = datetime.datetime.fromisoformat(_ends_at)

        cron = d.pop("cron", UNSET)

        duration_minutes = d.pop("duration_minutes", UNSET)

        _time_zone = d.pop("time_zone", UNSET)
        time_zone: TimeZone | Unset
        if isinstance(_time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = check_time_zone(_time_zone)

        _entry = d.pop("entry", UNSET)
        entry: ContestRequestEntry | Unset
        if isinstance(_entry, Unset):
            entry = UNSET
        else:
            entry = check_contest_request_entry(_entry)

        max_players = d.pop("max_players", UNSET)

        _metric = d.pop("metric", UNSET)
        metric: SumMetric | Unset
        if isinstance(_metric, Unset):
            metric = UNSET
        else:
            metric = check_sum_metric(_metric)

        _tie_break = d.pop("tie_break", UNSET)
        tie_break: SumTieBreak | Unset
        if isinstance(_tie_break, Unset):
            tie_break = UNSET
        else:
            tie_break = check_sum_tie_break(_tie_break)

        medals = d.pop("medals", UNSET)

        contest_request = cls(
            id=id,
            title=title,
            scope=scope,
            starts_at=starts_at,
            ends_at=ends_at,
            cron=cron,
            duration_minutes=duration_minutes,
            time_zone=time_zone,
            entry=entry,
            max_players=max_players,
            metric=metric,
            tie_break=tie_break,
            medals=medals,
        )

        return contest_request
