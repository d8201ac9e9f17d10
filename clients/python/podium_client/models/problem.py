from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field_error import FieldError


T = TypeVar("T", bound="Problem")


@_attrs_define(repr=False)
class Problem:
    """An RFC 9457 problem document.

    Attributes:
        type_ (str): URI naming the kind of problem: `https://podium.dev/problems/<code>`.
        title (str): Short summary of the kind of problem.
        status (int): HTTP status.
        detail (str): What went wrong this time.
        code (str): Stable machine-readable code clients may switch on: `validation-failed`, `malformed-body`,
            `unauthorized`, `forbidden`, `not-found`, `conflict`, `implausible-completion` (422: a player token's completion
            breaks a plausibility rule), `rate-limited` (429, with `Retry-After`), `request-timeout`, `body-too-large`,
            `method-not-allowed`, `unsupported-media-type`, `bad-request`, `unavailable`, `internal-error`.
        errors (list[FieldError] | Unset): Field-level problems; present on validation failures only.
        request_id (str | Unset): The request's id, as in its `X-Request-Id` answer header: quote it when asking ops to
            look a request up. Absent on the problem of one batch item.
    """

    type_: str
    title: str
    status: int
    detail: str
    code: str
    errors: list[FieldError] | Unset = UNSET
    request_id: str | Unset = UNSET

    def __repr__(self) -> str:
        """`Problem(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        code = self.code

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        request_id = self.request_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "detail": detail,
                "code": code,
            }
        )
        if errors is not UNSET:
            field_dict["errors"] = errors
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_error import FieldError

        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        code = d.pop("code")

        _errors = d.pop("errors", UNSET)
        errors: list[FieldError] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = FieldError.from_dict(errors_item_data)

                errors.append(errors_item)

        request_id = d.pop("request_id", UNSET)

        problem = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            code=code,
            errors=errors,
            request_id=request_id,
        )

        return problem
