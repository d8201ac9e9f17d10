from typing import Literal

GoalMeasure = Literal["completions", "correct", "perfect", "points"]

GOAL_MEASURE_VALUES: set[GoalMeasure] = {
    "completions",
    "correct",
    "perfect",
    "points",
}


def check_goal_measure(value: str) -> GoalMeasure:
    if value in GOAL_MEASURE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GOAL_MEASURE_VALUES!r}"
    )
