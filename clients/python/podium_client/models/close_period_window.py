from typing import Literal

ClosePeriodWindow = Literal["contest", "day", "month", "week"]

CLOSE_PERIOD_WINDOW_VALUES: set[ClosePeriodWindow] = {
    "contest",
    "day",
    "month",
    "week",
}


def check_close_period_window(value: str) -> ClosePeriodWindow:
    if value in CLOSE_PERIOD_WINDOW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CLOSE_PERIOD_WINDOW_VALUES!r}"
    )
