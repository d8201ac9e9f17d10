from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.league_cohort import LeagueCohort
    from ..models.league_result import LeagueResult


T = TypeVar("T", bound="LeagueCohortResults")


@_attrs_define
class LeagueCohortResults:
    """One cohort with its players' results in rank order.

    Attributes:
        cohort (LeagueCohort): One cohort of a league's week.
        results (list[LeagueResult]):
    """

    cohort: LeagueCohort
    results: list[LeagueResult]

    def to_dict(self) -> dict[str, Any]:
        cohort = self.cohort.to_dict()

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cohort": cohort,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.league_cohort import LeagueCohort
        from ..models.league_result import LeagueResult

        d = dict(src_dict)
        cohort = LeagueCohort.from_dict(d.pop("cohort"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = LeagueResult.from_dict(results_item_data)

            results.append(results_item)

        league_cohort_results = cls(
            cohort=cohort,
            results=results,
        )

        return league_cohort_results
