from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.job_summary_misfire import JobSummaryMisfire, check_job_summary_misfire
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_run import JobRun


T = TypeVar("T", bound="JobSummary")


@_attrs_define(repr=False)
class JobSummary:
    """A scheduled job.

    Attributes:
        name (str): Job name: `close-periods`, `snapshot-leaderboards`, `reconcile-rankings` or `prune`.
        cron (str): When it runs: a 5-field cron expression.
        schedule_words (str): `cron` in words ("every day at 03:30"), or the expression itself when no short phrase says
            it.
        time_zone (str): IANA time zone the cron expression is read in.
        misfire (JobSummaryMisfire): What happens to slots that passed while no replica ran the job (or while it was
            paused): `run-latest` runs the latest once and records the others as missed, `run-all` runs them all, oldest
            first, `skip` records them all as missed.
        retry_limit (int): Retries after a failed first attempt before the run is marked failed.
        lease_seconds (int): How long a replica's claim on a run lasts without renewal; after that another replica takes
            it over.
        paused (bool): Whether it is paused.
        next_slots (list[datetime.datetime]): Its next three scheduled slots, earliest first (fewer when the schedule
            has fewer).
        next_slot (datetime.datetime | Unset): Its next scheduled slot; absent when the schedule has none.
        last_run (JobRun | Unset): One run of a job: a (job, slot) pair, run at most once successfully across every
            replica.
    """

    name: str
    cron: str
    schedule_words: str
    time_zone: str
    misfire: JobSummaryMisfire
    retry_limit: int
    lease_seconds: int
    paused: bool
    next_slots: list[datetime.datetime]
    next_slot: datetime.datetime | Unset = UNSET
    last_run: JobRun | Unset = UNSET

    def __repr__(self) -> str:
        """`JobSummary(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        name = self.name

        cron = self.cron

        schedule_words = self.schedule_words

        time_zone = self.time_zone

        misfire: str = self.misfire

        retry_limit = self.retry_limit

        lease_seconds = self.lease_seconds

        paused = self.paused

        next_slots = []
        for next_slots_item_data in self.next_slots:
            next_slots_item = next_slots_item_data.isoformat()
            next_slots.append(next_slots_item)

        next_slot: str | Unset = UNSET
        if not isinstance(self.next_slot, Unset):
            next_slot = self.next_slot.isoformat()

        last_run: dict[str, Any] | Unset = UNSET
        if not isinstance(self.last_run, Unset):
            last_run = self.last_run.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "cron": cron,
                "schedule_words": schedule_words,
                "time_zone": time_zone,
                "misfire": misfire,
                "retry_limit": retry_limit,
                "lease_seconds": lease_seconds,
                "paused": paused,
                "next_slots": next_slots,
            }
        )
        if next_slot is not UNSET:
            field_dict["next_slot"] = next_slot
        if last_run is not UNSET:
            field_dict["last_run"] = last_run

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_run import JobRun

        d = dict(src_dict)
        name = d.pop("name")

        cron = d.pop("cron")

        schedule_words = d.pop("schedule_words")

        time_zone = d.pop("time_zone")

        misfire = check_job_summary_misfire(d.pop("misfire"))

        retry_limit = d.pop("retry_limit")

        lease_seconds = d.pop("lease_seconds")

        paused = d.pop("paused")

        next_slots = []
        _next_slots = d.pop("next_slots")
        for next_slots_item_data in _next_slots:
            next_slots_item = datetime.datetime.fromisoformat(next_slots_item_data)

            next_slots.append(next_slots_item)

        _next_slot = d.pop("next_slot", UNSET)
        next_slot: datetime.datetime | Unset
        if isinstance(_next_slot, Unset):
            next_slot = UNSET
        else:
            next_slot = datetime.datetime.fromisoformat(_next_slot)

        _last_run = d.pop("last_run", UNSET)
        last_run: JobRun | Unset
        if isinstance(_last_run, Unset):
            last_run = UNSET
        else:
            last_run = JobRun.from_dict(_last_run)

        job_summary = cls(
            name=name,
            cron=cron,
            schedule_words=schedule_words,
            time_zone=time_zone,
            misfire=misfire,
            retry_limit=retry_limit,
            lease_seconds=lease_seconds,
            paused=paused,
            next_slots=next_slots,
            next_slot=next_slot,
            last_run=last_run,
        )

        return job_summary
