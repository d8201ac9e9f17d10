from typing import Literal

JobRunStatus = Literal["failed", "missed", "pending", "running", "succeeded"]

JOB_RUN_STATUS_VALUES: set[JobRunStatus] = {
    "failed",
    "missed",
    "pending",
    "running",
    "succeeded",
}


def check_job_run_status(value: str) -> JobRunStatus:
    if value in JOB_RUN_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOB_RUN_STATUS_VALUES!r}"
    )
