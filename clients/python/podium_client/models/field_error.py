from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FieldError")


@_attrs_define
class FieldError:
    """A problem with one request field.

    Attributes:
        field (str): The request field at fault, as spelled in the request (`user_id`, `completions[3].total`); `body`
            when the body as a whole is the wrong type.
        message (str): What is wrong with it.
    """

    field: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "field": field,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        message = d.pop("message")

        field_error = cls(
            field=field,
            message=message,
        )

        return field_error
