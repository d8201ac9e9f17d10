from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from attrs import fields as _attrs_fields

from ..models.run_job_request_slot_type_0 import (
    RunJobRequestSlotType0,
    check_run_job_request_slot_type_0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="RunJobRequest")


@_attrs_define(repr=False)
class RunJobRequest:
    """The slot to run. Unknown keys are ignored; `{}` runs the current second.

    Attributes:
        slot (datetime.datetime | None | RunJobRequestSlotType0 | Unset): `now` (the default) or an RFC 3339 time (kept
            to the millisecond).
    """

    slot: datetime.datetime | None | RunJobRequestSlotType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def __repr__(self) -> str:
        """`RunJobRequest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        slot: None | str | Unset
        if isinstance(self.slot, Unset):
            slot = UNSET
        elif isinstance(self.slot, str):
            slot = self.slot
        elif isinstance(self.slot, datetime.datetime):
            slot = self.slot.isoformat()
        else:
            slot = self.slot

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if slot is not UNSET:
            field_dict["slot"] = slot

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_slot(
            data: object,
        ) -> datetime.datetime | None | RunJobRequestSlotType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                slot_type_0 = check_run_job_request_slot_type_0(data)

                return slot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                slot_type_1 = datetime.datetime.fromisoformat(data)

                return slot_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | RunJobRequestSlotType0 | Unset, data)

        slot = _parse_slot(d.pop("slot", UNSET))

        run_job_request = cls(
            slot=slot,
        )

        run_job_request.additional_properties = d
        return run_job_request

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
