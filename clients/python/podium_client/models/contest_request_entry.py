from typing import Literal

ContestRequestEntry = Literal["join", "open"]

CONTEST_REQUEST_ENTRY_VALUES: set[ContestRequestEntry] = {
    "join",
    "open",
}


def check_contest_request_entry(value: str) -> ContestRequestEntry:
    if value in CONTEST_REQUEST_ENTRY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CONTEST_REQUEST_ENTRY_VALUES!r}"
    )
