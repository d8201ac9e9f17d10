from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.outbox_event import OutboxEvent


T = TypeVar("T", bound="EventPage")


@_attrs_define(repr=False)
class EventPage:
    """A page of the event feed.

    Attributes:
        events (list[OutboxEvent]): Events in feed order, oldest first; empty when nothing new.
        next_cursor (str): Pass as `after` in the next poll: the last event's cursor when the page is full, else a
            position past every event considered so far (never before the `after` sent).
    """

    events: list[OutboxEvent]
    next_cursor: str

    def __repr__(self) -> str:
        """`EventPage(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.outbox_event import OutboxEvent

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = OutboxEvent.from_dict(events_item_data)

            events.append(events_item)

        next_cursor = d.pop("next_cursor")

        event_page = cls(
            events=events,
            next_cursor=next_cursor,
        )

        return event_page
