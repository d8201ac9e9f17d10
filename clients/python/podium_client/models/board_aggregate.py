from typing import Literal

BoardAggregate = Literal["best", "latest", "sum"]

BOARD_AGGREGATE_VALUES: set[BoardAggregate] = {
    "best",
    "latest",
    "sum",
}


def check_board_aggregate(value: str) -> BoardAggregate:
    if value in BOARD_AGGREGATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BOARD_AGGREGATE_VALUES!r}"
    )
