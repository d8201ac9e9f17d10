from typing import Literal

ListPeriodsWindow = Literal["contest", "day", "month", "week"]

LIST_PERIODS_WINDOW_VALUES: set[ListPeriodsWindow] = {
    "contest",
    "day",
    "month",
    "week",
}


def check_list_periods_window(value: str) -> ListPeriodsWindow:
    if value in LIST_PERIODS_WINDOW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PERIODS_WINDOW_VALUES!r}"
    )
