from typing import Literal

WebhookDeliveryStatus = Literal["dead", "delivered", "pending", "sending"]

WEBHOOK_DELIVERY_STATUS_VALUES: set[WebhookDeliveryStatus] = {
    "dead",
    "delivered",
    "pending",
    "sending",
}


def check_webhook_delivery_status(value: str) -> WebhookDeliveryStatus:
    if value in WEBHOOK_DELIVERY_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WEBHOOK_DELIVERY_STATUS_VALUES!r}"
    )
