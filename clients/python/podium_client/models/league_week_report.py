from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.league_week_report_outcome import (
    LeagueWeekReportOutcome,
    check_league_week_report_outcome,
)
from ..types import Unset

if TYPE_CHECKING:
    from ..models.league_cohort_results import LeagueCohortResults
    from ..models.league_tier_summary import LeagueTierSummary


T = TypeVar("T", bound="LeagueWeekReport")


@_attrs_define(repr=False)
class LeagueWeekReport:
    """What a league week's close did or would do: sums by tier over every cohort, and the players of the cohorts asked
    for.

        Attributes:
            league (str):
            period (str): The week.
            starts_at (datetime.datetime): The week's first instant.
            ends_at (datetime.datetime): The first instant after the week.
            closes_at (datetime.datetime): The week's end plus the close grace: it may close from then on (the scheduler
                closes it then).
            outcome (LeagueWeekReportOutcome): `closed`: every cohort of the week is closed now; `dry-run`: nothing was
                written (open cohorts are shown from their live standings).
            cohorts (int):
            closed_cohorts (int):
            players (int):
            tiers (list[LeagueTierSummary]):
            cohort_results (list[LeagueCohortResults]):
    """

    league: str
    period: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    closes_at: datetime.datetime
    outcome: LeagueWeekReportOutcome
    cohorts: int
    closed_cohorts: int
    players: int
    tiers: list[LeagueTierSummary]
    cohort_results: list[LeagueCohortResults]

    def __repr__(self) -> str:
        """`LeagueWeekReport(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        league = self.league

        period = self.period

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        closes_at = self.closes_at.isoformat()

        outcome: str = self.outcome

        cohorts = self.cohorts

        closed_cohorts = self.closed_cohorts

        players = self.players

        tiers = []
        for tiers_item_data in self.tiers:
            tiers_item = tiers_item_data.to_dict()
            tiers.append(tiers_item)

        cohort_results = []
        for cohort_results_item_data in self.cohort_results:
            cohort_results_item = cohort_results_item_data.to_dict()
            cohort_results.append(cohort_results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "league": league,
                "period": period,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "closes_at": closes_at,
                "outcome": outcome,
                "cohorts": cohorts,
                "closed_cohorts": closed_cohorts,
                "players": players,
                "tiers": tiers,
                "cohort_results": cohort_results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.league_cohort_results import LeagueCohortResults
        from ..models.league_tier_summary import LeagueTierSummary

        d = dict(src_dict)
        league = d.pop("league")

        period = d.pop("period")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        closes_at = datetime.datetime.fromisoformat(d.pop("closes_at"))

        outcome = check_league_week_report_outcome(d.pop("outcome"))

        cohorts = d.pop("cohorts")

        closed_cohorts = d.pop("closed_cohorts")

        players = d.pop("players")

        tiers = []
        _tiers = d.pop("tiers")
        for tiers_item_data in _tiers:
            tiers_item = LeagueTierSummary.from_dict(tiers_item_data)

            tiers.append(tiers_item)

        cohort_results = []
        _cohort_results = d.pop("cohort_results")
        for cohort_results_item_data in _cohort_results:
            cohort_results_item = LeagueCohortResults.from_dict(
                cohort_results_item_data
            )

            cohort_results.append(cohort_results_item)

        league_week_report = cls(
            league=league,
            period=period,
            starts_at=starts_at,
            ends_at=ends_at,
            closes_at=closes_at,
            outcome=outcome,
            cohorts=cohorts,
            closed_cohorts=closed_cohorts,
            players=players,
            tiers=tiers,
            cohort_results=cohort_results,
        )

        return league_week_report
