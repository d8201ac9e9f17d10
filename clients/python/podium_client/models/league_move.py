from typing import Literal

LeagueMove = Literal["promoted", "relegated", "stayed"]

LEAGUE_MOVE_VALUES: set[LeagueMove] = {
    "promoted",
    "relegated",
    "stayed",
}


def check_league_move(value: str) -> LeagueMove:
    if value in LEAGUE_MOVE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEAGUE_MOVE_VALUES!r}"
    )
