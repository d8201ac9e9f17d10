from typing import Literal

GoalKind = Literal["class", "personal"]

GOAL_KIND_VALUES: set[GoalKind] = {
    "class",
    "personal",
}


def check_goal_kind(value: str) -> GoalKind:
    if value in GOAL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GOAL_KIND_VALUES!r}")
