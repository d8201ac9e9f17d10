from typing import Literal

BatchItemResultStatus = Literal[200, 201, 400, 403, 409, 422, 500]

BATCH_ITEM_RESULT_STATUS_VALUES: set[BatchItemResultStatus] = {
    200,
    201,
    400,
    403,
    409,
    422,
    500,
}


def check_batch_item_result_status(value: int) -> BatchItemResultStatus:
    if value in BATCH_ITEM_RESULT_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {BATCH_ITEM_RESULT_STATUS_VALUES!r}"
    )
