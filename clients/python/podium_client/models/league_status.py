from typing import Literal

LeagueStatus = Literal["active", "ended", "paused"]

LEAGUE_STATUS_VALUES: set[LeagueStatus] = {
    "active",
    "ended",
    "paused",
}


def check_league_status(value: str) -> LeagueStatus:
    if value in LEAGUE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEAGUE_STATUS_VALUES!r}"
    )
