from typing import Literal

SumMetric = Literal["completions", "correct", "points"]

SUM_METRIC_VALUES: set[SumMetric] = {
    "completions",
    "correct",
    "points",
}


def check_sum_metric(value: str) -> SumMetric:
    if value in SUM_METRIC_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUM_METRIC_VALUES!r}"
    )
