from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.job_run_status import JobRunStatus, check_job_run_status
from ..models.job_run_trigger import JobRunTrigger, check_job_run_trigger
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_attempt import JobAttempt
    from ..models.job_run_result import JobRunResult


T = TypeVar("T", bound="JobRun")


@_attrs_define(repr=False)
class JobRun:
    """One run of a job: a (job, slot) pair, run at most once successfully across every replica.

    Attributes:
        job (str): Job name.
        slot (datetime.datetime): The scheduled time this run is for.
        trigger (JobRunTrigger): How it came about: `schedule` (its slot came due), `catch-up` (a slot missed while no
            replica ran, by the misfire policy) or `manual` (`POST /v1/admin/jobs/{name}/run`).
        status (JobRunStatus): `pending` (waiting for a replica to claim it, or for its next attempt), `running`,
            `succeeded`, `failed` (every attempt failed) or `missed` (its slot passed while no replica ran the job).
        attempt (int): Attempts made so far.
        attempts (list[JobAttempt]): Every attempt, first to last.
        replica (str | Unset): Replica of the latest attempt; absent before the first.
        started_at (datetime.datetime | Unset): When the first attempt started; absent before it.
        finished_at (datetime.datetime | Unset): When the run ended; absent while pending or running.
        next_attempt_at (datetime.datetime | Unset): When a pending run may next be claimed.
        error (str | Unset): The last error.
        result (JobRunResult | Unset): What a succeeded run did, as counts by name (e.g. `closed`, `medals`,
            `snapshots`).
    """

    job: str
    slot: datetime.datetime
    trigger: JobRunTrigger
    status: JobRunStatus
    attempt: int
    attempts: list[JobAttempt]
    replica: str | Unset = UNSET
    started_at: datetime.datetime | Unset = UNSET
    finished_at: datetime.datetime | Unset = UNSET
    next_attempt_at: datetime.datetime | Unset = UNSET
    error: str | Unset = UNSET
    result: JobRunResult | Unset = UNSET

    def __repr__(self) -> str:
        """`JobRun(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        slot = self.slot.isoformat()

        trigger: str = self.trigger

        status: str = self.status

        attempt = self.attempt

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        replica = self.replica

        started_at: str | Unset = UNSET
        if not isinstance(self.started_at, Unset):
            started_at = self.started_at.isoformat()

        finished_at: str | Unset = UNSET
        if not isinstance(self.finished_at, Unset):
            finished_at = self.finished_at.isoformat()

        next_attempt_at: str | Unset = UNSET
        if not isinstance(self.next_attempt_at, Unset):
            next_attempt_at = self.next_attempt_at.isoformat()

        error = self.error

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
                "slot": slot,
                "trigger": trigger,
                "status": status,
                "attempt": attempt,
                "attempts": attempts,
            }
        )
        if replica is not UNSET:
            field_dict["replica"] = replica
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at
        if error is not UNSET:
            field_dict["error"] = error
        if result is not UNSET:
            field_dict["result"] = result

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_attempt import JobAttempt
        from ..models.job_run_result import JobRunResult

        d = dict(src_dict)
        job = d.pop("job")

        slot = datetime.datetime.fromisoformat(d.pop("slot"))

        trigger = check_job_run_trigger(d.pop("trigger"))

        status = check_job_run_status(d.pop("status"))

        attempt = d.pop("attempt")

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = JobAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        replica = d.pop("replica", UNSET)

        _started_at = d.pop("started_at", UNSET)
        started_at: datetime.datetime | Unset
        if isinstance(_started_at, Unset):
            started_at = UNSET
        else:
            started_at = datetime.datetime.fromisoformat(_started_at)

        _finished_at = d.pop("finished_at", UNSET)
        finished_at: datetime.datetime | Unset
        if isinstance(_finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = datetime.datetime.fromisoformat(_finished_at)

        _next_attempt_at = d.pop("next_attempt_at", UNSET)
        next_attempt_at: datetime.datetime | Unset
        if isinstance(_next_attempt_at, Unset):
            next_attempt_at = UNSET
        else:
            next_attempt_at = datetime.datetime.fromisoformat(_next_attempt_at)

        error = d.pop("error", UNSET)

        _result = d.pop("result", UNSET)
        result: JobRunResult | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = JobRunResult.from_dict(_result)

        job_run = cls(
            job=job,
            slot=slot,
            trigger=trigger,
            status=status,
            attempt=attempt,
            attempts=attempts,
            replica=replica,
            started_at=started_at,
            finished_at=finished_at,
            next_attempt_at=next_attempt_at,
            error=error,
            result=result,
        )

        return job_run
