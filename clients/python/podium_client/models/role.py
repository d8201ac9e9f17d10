from typing import Literal

Role = Literal["admin", "display", "ingest", "read"]

ROLE_VALUES: set[Role] = {
    "admin",
    "display",
    "ingest",
    "read",
}


def check_role(value: str) -> Role:
    if value in ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROLE_VALUES!r}")
