from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.topic_statistics import TopicStatistics


T = TypeVar("T", bound="TopicList")


@_attrs_define
class TopicList:
    """A player's statistics per topic.

    Attributes:
        topics (list[TopicStatistics]): Per-topic statistics, most played first.
    """

    topics: list[TopicStatistics]

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
