from typing import Literal

SumTieBreak = Literal["earliest", "fastest", "shared"]

SUM_TIE_BREAK_VALUES: set[SumTieBreak] = {
    "earliest",
    "fastest",
    "shared",
}


def check_sum_tie_break(value: str) -> SumTieBreak:
    if value in SUM_TIE_BREAK_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUM_TIE_BREAK_VALUES!r}"
    )
