from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..models.sum_metric import SumMetric, check_sum_metric
from ..models.sum_tie_break import SumTieBreak, check_sum_tie_break
from ..models.time_zone import TimeZone, check_time_zone
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.league_tier_request import LeagueTierRequest


T = TypeVar("T", bound="LeagueRequest")


@_attrs_define(repr=False)
class LeagueRequest:
    """A new league. Its weeks are ISO weeks (Monday 00:00 to Monday 00:00) in `time_zone`.

    Attributes:
        id (str): The id; cohorts' board ids are `league:<id>:<tier>:<n>`.
        name (str): The name players see: 1-80 Unicode scalars, not only whitespace, without control characters.
        scope (list[Literal['global']] | list[str]): Which completions count: `["global"]`, one `["topic:<name>"]`, or
            1-50 distinct `["group:<name>", ...]` (a completion posted for any of them).
        tiers (list[LeagueTierRequest]): The tiers, lowest first.
        time_zone (TimeZone | Unset): A time zone of the tz database the server reads (tzdata 2025b listed here): any
            zone or alias (`Asia/Kolkata` and its old name `Asia/Calcutta`, `US/Eastern`, `UTC`, `Etc/UTC`, `EST5EDT`).
            Refused: the fixed-offset zones `Etc/GMT+N` and `Etc/GMT-N` (N > 0), whose signs are the reverse of what a
            reader expects, `Factory`, and names outside the database (`GMT+5`, `UTC+1`). A server on a later tz database
            also accepts the zones added since.
        cohort_size (int | Unset): The most players in one cohort. Default: 30.
        up (int | Unset): How many of each cohort move up, for tiers that do not say. Default: 7.
        down (int | Unset): How many of each cohort move down, for tiers that do not say. Default: 5.
        metric (SumMetric | Unset): What a contest's or a league's boards rank: they rank sums, so of the `BoardMetric`s
            only `points`, `completions` and `correct` (the single-run metrics `accuracy` and `duration` are refused, 400 on
            `metric`).
        tie_break (SumTieBreak | Unset): How a contest's or a league's equal scores rank: the `TieBreak`s of sum boards
            (`run` belongs to best and latest boards and is refused, 400 on `tie_break`).
        medals (bool | Unset): Whether each cohort awards medals at its close. Default: True.
    """

    id: str
    name: str
    scope: list[Literal["global"]] | list[str]
    tiers: list[LeagueTierRequest]
    time_zone: TimeZone | Unset = UNSET
    cohort_size: int | Unset = 30
    up: int | Unset = 7
    down: int | Unset = 5
    metric: SumMetric | Unset = UNSET
    tie_break: SumTieBreak | Unset = UNSET
    medals: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`LeagueRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        name = self.name

        scope: list[Literal["global"]] | list[str]
        if isinstance(self.scope, list):
            scope = self.scope

        else:
            scope = self.scope

        tiers = []
        for tiers_item_data in self.tiers:
            tiers_item = tiers_item_data.to_dict()
            tiers.append(tiers_item)

        time_zone: str | Unset = UNSET
        if not isinstance(self.time_zone, Unset):
            time_zone = self.time_zone

        cohort_size = self.cohort_size

        up = self.up

        down = self.down

        metric: str | Unset = UNSET
        if not isinstance(self.metric, Unset):
            metric = self.metric

        tie_break: str | Unset = UNSET
        if not isinstance(self.tie_break, Unset):
            tie_break = self.tie_break

        medals = self.medals

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "scope": scope,
                "tiers": tiers,
            }
        )
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone
        if cohort_size is not UNSET:
            field_dict["cohort_size"] = cohort_size
        if up is not UNSET:
            field_dict["up"] = up
        if down is not UNSET:
            field_dict["down"] = down
        if metric is not UNSET:
            field_dict["metric"] = metric
        if tie_break is not UNSET:
            field_dict["tie_break"] = tie_break
        if medals is not UNSET:
            field_dict["medals"] = medals

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.league_tier_request import LeagueTierRequest

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

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

        tiers = []
        _tiers = d.pop("tiers")
        for tiers_item_data in _tiers:
            tiers_item = LeagueTierRequest.from_dict(tiers_item_data)

            tiers.append(tiers_item)

        _time_zone = d.pop("time_zone", UNSET)
        time_zone: TimeZone | Unset
        if isinstance(_time_zone, Unset):
            time_zone = UNSET
        else:
            time_zone = check_time_zone(_time_zone)

        cohort_size = d.pop("cohort_size", UNSET)

        up = d.pop("up", UNSET)

        down = d.pop("down", UNSET)

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

        league_request = cls(
            id=id,
            name=name,
            scope=scope,
            tiers=tiers,
            time_zone=time_zone,
            cohort_size=cohort_size,
            up=up,
            down=down,
            metric=metric,
            tie_break=tie_break,
            medals=medals,
        )

        league_request.additional_properties = d
        return league_request

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
