from typing import Literal

LeaderboardEntryMedal = Literal["bronze", "gold", "silver"]

LEADERBOARD_ENTRY_MEDAL_VALUES: set[LeaderboardEntryMedal] = {
    "bronze",
    "gold",
    "silver",
}


def check_leaderboard_entry_medal(value: str) -> LeaderboardEntryMedal:
    if value in LEADERBOARD_ENTRY_MEDAL_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEADERBOARD_ENTRY_MEDAL_VALUES!r}"
    )
