from typing import Literal

ContestSchedule = Literal["once", "recurring"]

CONTEST_SCHEDULE_VALUES: set[ContestSchedule] = {
    "once",
    "recurring",
}


def check_contest_schedule(value: str) -> ContestSchedule:
    if value in CONTEST_SCHEDULE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CONTEST_SCHEDULE_VALUES!r}"
    )
