from typing import Literal

LeaderboardSnapshotKind = Literal["final", "scheduled"]

LEADERBOARD_SNAPSHOT_KIND_VALUES: set[LeaderboardSnapshotKind] = {
    "final",
    "scheduled",
}


def check_leaderboard_snapshot_kind(value: str) -> LeaderboardSnapshotKind:
    if value in LEADERBOARD_SNAPSHOT_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEADERBOARD_SNAPSHOT_KIND_VALUES!r}"
    )
