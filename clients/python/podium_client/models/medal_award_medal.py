from typing import Literal

MedalAwardMedal = Literal["bronze", "gold", "silver"]

MEDAL_AWARD_MEDAL_VALUES: set[MedalAwardMedal] = {
    "bronze",
    "gold",
    "silver",
}


def check_medal_award_medal(value: str) -> MedalAwardMedal:
    if value in MEDAL_AWARD_MEDAL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {MEDAL_AWARD_MEDAL_VALUES!r}"
    )
