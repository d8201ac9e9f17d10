from typing import Literal

LeagueZone = Literal["promotion", "relegation", "safe"]

LEAGUE_ZONE_VALUES: set[LeagueZone] = {
    "promotion",
    "relegation",
    "safe",
}


def check_league_zone(value: str) -> LeagueZone:
    if value in LEAGUE_ZONE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEAGUE_ZONE_VALUES!r}"
    )
