from typing import Literal

RunJobRequestSlotType0 = Literal["now"]

RUN_JOB_REQUEST_SLOT_TYPE_0_VALUES: set[RunJobRequestSlotType0] = {
    "now",
}


def check_run_job_request_slot_type_0(value: str) -> RunJobRequestSlotType0:
    if value in RUN_JOB_REQUEST_SLOT_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RUN_JOB_REQUEST_SLOT_TYPE_0_VALUES!r}"
    )
