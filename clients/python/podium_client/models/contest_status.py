from typing import Literal

ContestStatus = Literal["between-runs", "cancelled", "ended", "running", "scheduled"]

CONTEST_STATUS_VALUES: set[ContestStatus] = {
    "between-runs",
    "cancelled",
    "ended",
    "running",
    "scheduled",
}


def check_contest_status(value: str) -> ContestStatus:
    if value in CONTEST_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CONTEST_STATUS_VALUES!r}"
    )
