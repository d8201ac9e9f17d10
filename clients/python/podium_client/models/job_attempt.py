from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.job_attempt_outcome import JobAttemptOutcome, check_job_attempt_outcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="JobAttempt")


@_attrs_define(repr=False)
class JobAttempt:
    """One attempt of a run.

    Attributes:
        attempt (int): Attempt number, from 1.
        replica (str): Replica that made it.
        started_at (datetime.datetime): When it started.
        finished_at (datetime.datetime | Unset): When it ended; absent while running.
        outcome (JobAttemptOutcome | Unset): How it ended: `succeeded`, `failed`, or `lease-lost` (its replica stopped
            renewing the lease and the run was taken over or failed); absent while running.
        error (str | Unset): Why it failed, for a failed attempt.
    """

    attempt: int
    replica: str
    started_at: datetime.datetime
    finished_at: datetime.datetime | Unset = UNSET
    outcome: JobAttemptOutcome | Unset = UNSET
    error: str | Unset = UNSET

    def __repr__(self) -> str:
        """`JobAttempt(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        attempt = self.attempt

        replica = self.replica

        started_at = self.started_at.isoformat()

        finished_at: str | Unset = UNSET
        if not isinstance(self.finished_at, Unset):
            finished_at = self.finished_at.isoformat()

        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "replica": replica,
                "started_at": started_at,
            }
        )
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        replica = d.pop("replica")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        _finished_at = d.pop("finished_at", UNSET)
        finished_at: datetime.datetime | Unset
        if isinstance(_finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = datetime.datetime.fromisoformat(_finished_at)

        _outcome = d.pop("outcome", UNSET)
        outcome: JobAttemptOutcome | Unset
        if isinstance(_outcome, Unset):
            outcome = UNSET
        else:
            outcome = check_job_attempt_outcome(_outcome)

        error = d.pop("error", UNSET)

        job_attempt = cls(
            attempt=attempt,
            replica=replica,
            started_at=started_at,
            finished_at=finished_at,
            outcome=outcome,
            error=error,
        )

        return job_attempt
