from typing import Literal

PeriodCloseReportOutcome = Literal["already-closed", "closed", "dry-run"]

PERIOD_CLOSE_REPORT_OUTCOME_VALUES: set[PeriodCloseReportOutcome] = {
    "already-closed",
    "closed",
    "dry-run",
}


def check_period_close_report_outcome(value: str) -> PeriodCloseReportOutcome:
    if value in PERIOD_CLOSE_REPORT_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERIOD_CLOSE_REPORT_OUTCOME_VALUES!r}"
    )
