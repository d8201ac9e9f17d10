from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

T = TypeVar("T", bound="JobPauseState")


@_attrs_define(repr=False)
class JobPauseState:
    """Whether a job is paused.

    Attributes:
        job (str): Job name.
        paused (bool): Whether it is paused now.
    """

    job: str
    paused: bool

    def __repr__(self) -> str:
        """`JobPauseState(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        job = self.job

        paused = self.paused

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
                "paused": paused,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job = d.pop("job")

        paused = d.pop("paused")

        job_pause_state = cls(
            job=job,
            paused=paused,
        )

        return job_pause_state
