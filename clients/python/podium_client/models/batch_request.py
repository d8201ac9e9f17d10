from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.completion_request import CompletionRequest


T = TypeVar("T", bound="BatchRequest")


@_attrs_define(repr=False)
class BatchRequest:
    """Up to 500 completions (offline sync). Unknown keys are ignored.

    Attributes:
        completions (list[CompletionRequest]): The completions, in order.
    """

    completions: list[CompletionRequest]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`BatchRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        completions = []
        for completions_item_data in self.completions:
            completions_item = completions_item_data.to_dict()
            completions.append(completions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "completions": completions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.completion_request import CompletionRequest

        d = dict(src_dict)
        completions = []
        _completions = d.pop("completions")
        for completions_item_data in _completions:
            completions_item = CompletionRequest.from_dict(completions_item_data)

            completions.append(completions_item)

        batch_request = cls(
            completions=completions,
        )

        batch_request.additional_properties = d
        return batch_request

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
