from typing import Literal

JobRunTrigger = Literal["catch-up", "manual", "schedule"]

JOB_RUN_TRIGGER_VALUES: set[JobRunTrigger] = {
    "catch-up",
    "manual",
    "schedule",
}


def check_job_run_trigger(value: str) -> JobRunTrigger:
    if value in JOB_RUN_TRIGGER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOB_RUN_TRIGGER_VALUES!r}"
    )
