from typing import Literal

StreamLeaderboardResponse200Event = Literal["page", "status"]

STREAM_LEADERBOARD_RESPONSE_200_EVENT_VALUES: set[StreamLeaderboardResponse200Event] = {
    "page",
    "status",
}


def check_stream_leaderboard_response_200_event(
    value: str,
) -> StreamLeaderboardResponse200Event:
    if value in STREAM_LEADERBOARD_RESPONSE_200_EVENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {STREAM_LEADERBOARD_RESPONSE_200_EVENT_VALUES!r}"
    )
