from typing import Literal

BoardMetric = Literal["accuracy", "completions", "correct", "duration", "points"]

BOARD_METRIC_VALUES: set[BoardMetric] = {
    "accuracy",
    "completions",
    "correct",
    "duration",
    "points",
}


def check_board_metric(value: str) -> BoardMetric:
    if value in BOARD_METRIC_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BOARD_METRIC_VALUES!r}"
    )
