from typing import Literal

EventType = Literal[
    "achievement.unlocked",
    "completion.recorded",
    "goal.completed",
    "league.promoted",
    "league.relegated",
    "league.stayed",
    "level.reached",
    "medal.awarded",
    "period.closed",
    "reminder.due",
]

EVENT_TYPE_VALUES: set[EventType] = {
    "achievement.unlocked",
    "completion.recorded",
    "goal.completed",
    "league.promoted",
    "league.relegated",
    "league.stayed",
    "level.reached",
    "medal.awarded",
    "period.closed",
    "reminder.due",
}


def check_event_type(value: str) -> EventType:
    if value in EVENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EVENT_TYPE_VALUES!r}"
    )
