from typing import Literal

PeriodSummaryStatus = Literal["closed", "due", "open"]

PERIOD_SUMMARY_STATUS_VALUES: set[PeriodSummaryStatus] = {
    "closed",
    "due",
    "open",
}


def check_period_summary_status(value: str) -> PeriodSummaryStatus:
    if value in PERIOD_SUMMARY_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PERIOD_SUMMARY_STATUS_VALUES!r}"
    )
