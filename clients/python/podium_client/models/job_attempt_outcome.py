from typing import Literal

JobAttemptOutcome = Literal["failed", "lease-lost", "succeeded"]

JOB_ATTEMPT_OUTCOME_VALUES: set[JobAttemptOutcome] = {
    "failed",
    "lease-lost",
    "succeeded",
}


def check_job_attempt_outcome(value: str) -> JobAttemptOutcome:
    if value in JOB_ATTEMPT_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOB_ATTEMPT_OUTCOME_VALUES!r}"
    )
