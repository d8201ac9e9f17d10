from typing import Literal

JobSummaryMisfire = Literal["run-all", "run-latest", "skip"]

JOB_SUMMARY_MISFIRE_VALUES: set[JobSummaryMisfire] = {
    "run-all",
    "run-latest",
    "skip",
}


def check_job_summary_misfire(value: str) -> JobSummaryMisfire:
    if value in JOB_SUMMARY_MISFIRE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOB_SUMMARY_MISFIRE_VALUES!r}"
    )
