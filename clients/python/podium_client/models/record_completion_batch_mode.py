from typing import Literal

RecordCompletionBatchMode = Literal["all", "partial"]

RECORD_COMPLETION_BATCH_MODE_VALUES: set[RecordCompletionBatchMode] = {
    "all",
    "partial",
}


def check_record_completion_batch_mode(value: str) -> RecordCompletionBatchMode:
    if value in RECORD_COMPLETION_BATCH_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RECORD_COMPLETION_BATCH_MODE_VALUES!r}"
    )
