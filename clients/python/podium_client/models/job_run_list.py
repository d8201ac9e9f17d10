from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.job_run import JobRun


T = TypeVar("T", bound="JobRunList")


@_attrs_define(repr=False)
class JobRunList:
    """A job's run history.

    Attributes:
        job (str): Job name.
        runs (list[JobRun]): Runs, newest slot first.
    """

    job: str
    runs: list[JobRun]

    def __repr__(self) -> str:
        """`JobRunList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        job = self.job

        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
                "runs": runs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_run import JobRun

        d = dict(src_dict)
        job = d.pop("job")

        runs = []
        _runs = d.pop("runs")
        for runs_item_data in _runs:
            runs_item = JobRun.from_dict(runs_item_data)

            runs.append(runs_item)

        job_run_list = cls(
            job=job,
            runs=runs,
        )

        return job_run_list
