from typing import Literal

TieBreak = Literal["earliest", "fastest", "run", "shared"]

TIE_BREAK_VALUES: set[TieBreak] = {
    "earliest",
    "fastest",
    "run",
    "shared",
}


def check_tie_break(value: str) -> TieBreak:
    if value in TIE_BREAK_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TIE_BREAK_VALUES!r}")
