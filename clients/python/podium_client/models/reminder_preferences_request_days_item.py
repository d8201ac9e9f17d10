from typing import Literal

ReminderPreferencesRequestDaysItem = Literal[
    "fri", "mon", "sat", "sun", "thu", "tue", "wed"
]

REMINDER_PREFERENCES_REQUEST_DAYS_ITEM_VALUES: set[
    ReminderPreferencesRequestDaysItem
] = {
    "fri",
    "mon",
    "sat",
    "sun",
    "thu",
    "tue",
    "wed",
}


def check_reminder_preferences_request_days_item(
    value: str,
) -> ReminderPreferencesRequestDaysItem:
    if value in REMINDER_PREFERENCES_REQUEST_DAYS_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REMINDER_PREFERENCES_REQUEST_DAYS_ITEM_VALUES!r}"
    )
