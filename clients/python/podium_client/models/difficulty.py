from typing import Literal

Difficulty = Literal["easy", "hard", "medium"]

DIFFICULTY_VALUES: set[Difficulty] = {
    "easy",
    "hard",
    "medium",
}


def check_difficulty(value: str) -> Difficulty:
    if value in DIFFICULTY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DIFFICULTY_VALUES!r}"
    )
