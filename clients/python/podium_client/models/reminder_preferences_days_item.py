from typing import Literal

ReminderPreferencesDaysItem = Literal["fri", "mon", "sat", "sun", "thu", "tue", "wed"]

REMINDER_PREFERENCES_DAYS_ITEM_VALUES: set[ReminderPreferencesDaysItem] = {
    "fri",
    "mon",
    "sat",
    "sun",
    "thu",
    "tue",
    "wed",
}


def check_reminder_preferences_days_item(value: str) -> ReminderPreferencesDaysItem:
    if value in REMINDER_PREFERENCES_DAYS_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REMINDER_PREFERENCES_DAYS_ITEM_VALUES!r}"
    )
