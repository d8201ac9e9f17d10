from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.health_status_status import HealthStatusStatus, check_health_status_status
from ..types import UNSET, Unset

T = TypeVar("T", bound="HealthStatus")


@_attrs_define(repr=False)
class HealthStatus:
    """The answer of the health probes.

    Attributes:
        status (HealthStatusStatus): `ok` (liveness); `ready`, `degraded` (Redis does not answer) or `not ready`
            (PostgreSQL does not answer) for readiness.
        postgres (str | Unset): PostgreSQL check: `ok` or `unavailable` (readiness only; the reason is logged, not
            answered).
        redis (str | Unset): Redis check: `ok` or `unavailable` (readiness only; the reason is logged, not answered).
    """

    status: HealthStatusStatus
    postgres: str | Unset = UNSET
    redis: str | Unset = UNSET

    def __repr__(self) -> str:
        """`HealthStatus(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        status: str = self.status

        postgres = self.postgres

        redis = self.redis

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )
        if postgres is not UNSET:
            field_dict["postgres"] = postgres
        if redis is not UNSET:
            field_dict["redis"] = redis

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = check_health_status_status(d.pop("status"))

        postgres = d.pop("postgres", UNSET)

        redis = d.pop("redis", UNSET)

        health_status = cls(
            status=status,
            postgres=postgres,
            redis=redis,
        )

        return health_status
