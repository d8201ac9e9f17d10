from typing import Literal

LeagueResultMedal = Literal["bronze", "gold", "silver"]

LEAGUE_RESULT_MEDAL_VALUES: set[LeagueResultMedal] = {
    "bronze",
    "gold",
    "silver",
}


def check_league_result_medal(value: str) -> LeagueResultMedal:
    if value in LEAGUE_RESULT_MEDAL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEAGUE_RESULT_MEDAL_VALUES!r}"
    )
