from typing import Literal

ListLeaderboardsKind = Literal[
    "contest", "global", "group", "league", "quiz", "team", "topic"
]

LIST_LEADERBOARDS_KIND_VALUES: set[ListLeaderboardsKind] = {
    "contest",
    "global",
    "group",
    "league",
    "quiz",
    "team",
    "topic",
}


def check_list_leaderboards_kind(value: str) -> ListLeaderboardsKind:
    if value in LIST_LEADERBOARDS_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_LEADERBOARDS_KIND_VALUES!r}"
    )
