from typing import Literal

ComparedPeriodStatus = Literal["closed", "open"]

COMPARED_PERIOD_STATUS_VALUES: set[ComparedPeriodStatus] = {
    "closed",
    "open",
}


def check_compared_period_status(value: str) -> ComparedPeriodStatus:
    if value in COMPARED_PERIOD_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMPARED_PERIOD_STATUS_VALUES!r}"
    )
