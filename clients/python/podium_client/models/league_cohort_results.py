from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.league_cohort import LeagueCohort
    from ..models.league_result import LeagueResult


T = TypeVar("T", bound="LeagueCohortResults")


@_attrs_define(repr=False)
class LeagueCohortResults:
    """One cohort with its players' results in rank order.

    Attributes:
        cohort (LeagueCohort): One cohort of a league's week.
        results (list[LeagueResult]):
    """

    cohort: LeagueCohort
    results: list[LeagueResult]

    def __repr__(self) -> str:
        """`LeagueCohortResults(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
