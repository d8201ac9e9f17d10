from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.batch_item_result_status import (
    BatchItemResultStatus,
    check_batch_item_result_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.completion_response import CompletionResponse
    from ..models.problem import Problem


T = TypeVar("T", bound="BatchItemResult")


@_attrs_define(repr=False)
class BatchItemResult:
    """One completion's result in a batch.

    Attributes:
        id (str): The completion id, as sent (empty when an invalid item had none).
        status (BatchItemResultStatus): 201 recorded, 200 replay of an identical completion, 409 conflict with a
            different one, 400 invalid (with `mode=partial`) or older than the age limit and no longer recorded (erased
            after the batch was checked), 403 not this credential's to write and 422 implausible (both with `mode=partial`),
            500 refused by the database on its own (the others stand; it is logged and may be resent).
        result (CompletionResponse | Unset): The answer to a recorded (or replayed) completion.
        problem (Problem | Unset): An RFC 9457 problem document.
    """

    id: str
    status: BatchItemResultStatus
    result: CompletionResponse | Unset = UNSET
    problem: Problem | Unset = UNSET

    def __repr__(self) -> str:
        """`BatchItemResult(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        status: int = self.status

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

        problem: dict[str, Any] | Unset = UNSET
        if not isinstance(self.problem, Unset):
            problem = self.problem.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
            }
        )
        if result is not UNSET:
            field_dict["result"] = result
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.completion_response import CompletionResponse
        from ..models.problem import Problem

        d = dict(src_dict)
        id = d.pop("id")

        status = check_batch_item_result_status(d.pop("status"))

        _result = d.pop("result", UNSET)
        result: CompletionResponse | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = CompletionResponse.from_dict(_result)

        _problem = d.pop("problem", UNSET)
        problem: Problem | Unset
        if isinstance(_problem, Unset):
            problem = UNSET
        else:
            problem = Problem.from_dict(_problem)

        batch_item_result = cls(
            id=id,
            status=status,
            result=result,
            problem=problem,
        )

        return batch_item_result
