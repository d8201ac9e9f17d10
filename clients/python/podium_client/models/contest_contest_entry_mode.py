from typing import Literal

ContestContestEntryMode = Literal["join", "open"]

CONTEST_CONTEST_ENTRY_MODE_VALUES: set[ContestContestEntryMode] = {
    "join",
    "open",
}


def check_contest_contest_entry_mode(value: str) -> ContestContestEntryMode:
    if value in CONTEST_CONTEST_ENTRY_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CONTEST_CONTEST_ENTRY_MODE_VALUES!r}"
    )
