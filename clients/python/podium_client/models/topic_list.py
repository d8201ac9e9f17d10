from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.topic_statistics import TopicStatistics


T = TypeVar("T", bound="TopicList")


@_attrs_define(repr=False)
class TopicList:
    """A player's statistics per topic.

    Attributes:
        topics (list[TopicStatistics]): Per-topic statistics, most played first.
    """

    topics: list[TopicStatistics]

    def __repr__(self) -> str:
        """`TopicList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        topics = []
        for topics_item_data in self.topics:
            topics_item = topics_item_data.to_dict()
            topics.append(topics_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "topics": topics,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.topic_statistics import TopicStatistics

        d = dict(src_dict)
        topics = []
        _topics = d.pop("topics")
        for topics_item_data in _topics:
            topics_item = TopicStatistics.from_dict(topics_item_data)

            topics.append(topics_item)

        topic_list = cls(
            topics=topics,
        )

        return topic_list
