from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..models.stream_leaderboard_response_200_event import (
    StreamLeaderboardResponse200Event,
    check_stream_leaderboard_response_200_event,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="StreamLeaderboardResponse200")


@_attrs_define(repr=False)
class StreamLeaderboardResponse200:
    """One Server-Sent Event (the stream starts with `retry: 2000`; heartbeats are comments).

    Attributes:
        data (str): `page`: the page's JSON, as `GET` answers it (a `LeaderboardPage`); `status`: `{"live": true}` or
            `{"live": false}`.
        event (StreamLeaderboardResponse200Event | Unset): `page`: the page changed; `status`: whether change notices
            arrive.
        id (str | Unset): `page`: the page's ETag, for `Last-Event-ID`.
        retry (int | Unset): Milliseconds a client waits before reconnecting.
    """

    data: str
    event: StreamLeaderboardResponse200Event | Unset = UNSET
    id: str | Unset = UNSET
    retry: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`StreamLeaderboardResponse200(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        data = self.data

        event: str | Unset = UNSET
        if not isinstance(self.event, Unset):
            event = self.event

        id = self.id

        retry = self.retry

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
            }
        )
        if event is not UNSET:
            field_dict["event"] = event
        if id is not UNSET:
            field_dict["id"] = id
        if retry is not UNSET:
            field_dict["retry"] = retry

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        data = d.pop("data")

        _event = d.pop("event", UNSET)
        event: StreamLeaderboardResponse200Event | Unset
        if isinstance(_event, Unset):
            event = UNSET
        else:
            event = check_stream_leaderboard_response_200_event(_event)

        id = d.pop("id", UNSET)

        retry = d.pop("retry", UNSET)

        stream_leaderboard_response_200 = cls(
            data=data,
            event=event,
            id=id,
            retry=retry,
        )

        stream_leaderboard_response_200.additional_properties = d
        return stream_leaderboard_response_200

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
