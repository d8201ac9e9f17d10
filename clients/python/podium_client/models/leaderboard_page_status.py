from typing import Literal

LeaderboardPageStatus = Literal["closed", "open"]

LEADERBOARD_PAGE_STATUS_VALUES: set[LeaderboardPageStatus] = {
    "closed",
    "open",
}


def check_leaderboard_page_status(value: str) -> LeaderboardPageStatus:
    if value in LEADERBOARD_PAGE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEADERBOARD_PAGE_STATUS_VALUES!r}"
    )
