from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.batch_item_result import BatchItemResult


T = TypeVar("T", bound="BatchResponse")


@_attrs_define(repr=False)
class BatchResponse:
    """The answer to a batch.

    Attributes:
        results (list[BatchItemResult]): One result per completion, in the order sent.
        created (int): How many were new.
        replayed (int): How many were replays.
        conflicts (int): How many conflicted.
        invalid (int): How many items were refused, each with its own problem (only with `mode=partial`; 0 otherwise).
    """

    results: list[BatchItemResult]
    created: int
    replayed: int
    conflicts: int
    invalid: int

    def __repr__(self) -> str:
        """`BatchResponse(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        created = self.created

        replayed = self.replayed

        conflicts = self.conflicts

        invalid = self.invalid

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "results": results,
                "created": created,
                "replayed": replayed,
                "conflicts": conflicts,
                "invalid": invalid,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.batch_item_result import BatchItemResult

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = BatchItemResult.from_dict(results_item_data)

            results.append(results_item)

        created = d.pop("created")

        replayed = d.pop("replayed")

        conflicts = d.pop("conflicts")

        invalid = d.pop("invalid")

        batch_response = cls(
            results=results,
            created=created,
            replayed=replayed,
            conflicts=conflicts,
            invalid=invalid,
        )

        return batch_response
