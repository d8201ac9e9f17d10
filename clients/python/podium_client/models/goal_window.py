from typing import Literal

GoalWindow = Literal["day", "week"]

GOAL_WINDOW_VALUES: set[GoalWindow] = {
    "day",
    "week",
}


def check_goal_window(value: str) -> GoalWindow:
    if value in GOAL_WINDOW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GOAL_WINDOW_VALUES!r}"
    )
