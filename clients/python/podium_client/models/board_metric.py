from typing import Literal

BoardMetric = Literal["completions", "points"]

BOARD_METRIC_VALUES: set[BoardMetric] = {
    "completions",
    "points",
}


def check_board_metric(value: str) -> BoardMetric:
    if value in BOARD_METRIC_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BOARD_METRIC_VALUES!r}"
    )
