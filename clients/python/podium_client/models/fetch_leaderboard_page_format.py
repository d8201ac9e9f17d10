from typing import Literal

FetchLeaderboardPageFormat = Literal["csv", "json"]

FETCH_LEADERBOARD_PAGE_FORMAT_VALUES: set[FetchLeaderboardPageFormat] = {
    "csv",
    "json",
}


def check_fetch_leaderboard_page_format(value: str) -> FetchLeaderboardPageFormat:
    if value in FETCH_LEADERBOARD_PAGE_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FETCH_LEADERBOARD_PAGE_FORMAT_VALUES!r}"
    )
