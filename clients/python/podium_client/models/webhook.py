from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.event_type import EventType, check_event_type
from ..types import Unset

T = TypeVar("T", bound="Webhook")


@_attrs_define(repr=False)
class Webhook:
    """A registered webhook (its secret is never shown).

    Attributes:
        id (str): Webhook id, `wh_…`.
        url (str): Where events are POSTed.
        event_types (list[EventType]): Event types it receives.
        enabled (bool): False once disabled: no new deliveries are made for it.
        created_at (str): RFC 3339 creation time.
    """

    id: str
    url: str
    event_types: list[EventType]
    enabled: bool
    created_at: str

    def __repr__(self) -> str:
        """`Webhook(field=value, ...)` with the fields that are set: unset optional fields are left out."""
        fields = (
            (attribute.name, getattr(self, attribute.name))
            for attribute in _attrs_fields(type(self))
        )
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in fields
            if not isinstance(value, Unset)
            and not (name == "additional_properties" and not value)
        )
        return f"{type(self).__name__}({shown})"

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item: str = event_types_item_data
            event_types.append(event_types_item)

        enabled = self.enabled

        created_at = self.created_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "event_types": event_types,
                "enabled": enabled,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        event_types = []
        _event_types = d.pop("event_types")
        for event_types_item_data in _event_types:
            event_types_item = check_event_type(event_types_item_data)

            event_types.append(event_types_item)

        enabled = d.pop("enabled")

        created_at = d.pop("created_at")

        webhook = cls(
            id=id,
            url=url,
            event_types=event_types,
            enabled=enabled,
            created_at=created_at,
        )

        return webhook
