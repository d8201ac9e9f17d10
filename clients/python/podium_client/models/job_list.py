from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.job_summary import JobSummary


T = TypeVar("T", bound="JobList")


@_attrs_define(repr=False)
class JobList:
    """The scheduled jobs.

    Attributes:
        replica (str): The replica that answered (the name run history shows for it).
        jobs (list[JobSummary]): Every job, by name.
    """

    replica: str
    jobs: list[JobSummary]

    def __repr__(self) -> str:
        """`JobList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        replica = self.replica

        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "replica": replica,
                "jobs": jobs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_summary import JobSummary

        d = dict(src_dict)
        replica = d.pop("replica")

        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = JobSummary.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        job_list = cls(
            replica=replica,
            jobs=jobs,
        )

        return job_list
