from typing import Literal

LeaderboardWindow = Literal["all", "contest", "day", "month", "week"]

LEADERBOARD_WINDOW_VALUES: set[LeaderboardWindow] = {
    "all",
    "contest",
    "day",
    "month",
    "week",
}


def check_leaderboard_window(value: str) -> LeaderboardWindow:
    if value in LEADERBOARD_WINDOW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEADERBOARD_WINDOW_VALUES!r}"
    )
