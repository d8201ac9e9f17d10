from typing import Literal

RankPointKind = Literal["final", "scheduled"]

RANK_POINT_KIND_VALUES: set[RankPointKind] = {
    "final",
    "scheduled",
}


def check_rank_point_kind(value: str) -> RankPointKind:
    if value in RANK_POINT_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RANK_POINT_KIND_VALUES!r}"
    )
