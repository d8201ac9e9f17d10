from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

T = TypeVar("T", bound="AuditEntry")


@_attrs_define(repr=False)
class AuditEntry:
    """One admin action.

    Attributes:
        id (int): Its place in the trail: later entries have larger ids.
        at (datetime.datetime): When it was answered.
        actor (str): The API key's id, or `bootstrap` for the bootstrap admin key.
        action (str): The method and route: `POST /v1/admin/jobs/{name}/pause`.
        target (str): The path (and query) it was sent to; an erased player's id as `sha256:` and 16 hex digits.
        status (int): The HTTP status it was answered with.
        request_id (str): The request's id (`X-Request-Id`), to find its log lines.
        actor_name (str | Unset): The key's name (absent for the bootstrap key).
        detail (str | Unset): What the action changed when its path does not say, e.g. `display key 3f2a…, expires
            2027-03-31T23:59:59.000Z` for a key's creation; absent otherwise.
    """

    id: int
    at: datetime.datetime
    actor: str
    action: str
    target: str
    status: int
    request_id: str
    actor_name: str | Unset = UNSET
    detail: str | Unset = UNSET

    def __repr__(self) -> str:
        """`AuditEntry(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        at = self.at.isoformat()

        actor = self.actor

        action = self.action

        target = self.target

        status = self.status

        request_id = self.request_id

        actor_name = self.actor_name

        detail = self.detail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "at": at,
                "actor": actor,
                "action": action,
                "target": target,
                "status": status,
                "request_id": request_id,
            }
        )
        if actor_name is not UNSET:
            field_dict["actor_name"] = actor_name
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        actor = d.pop("actor")

        action = d.pop("action")

        target = d.pop("target")

        status = d.pop("status")

        request_id = d.pop("request_id")

        actor_name = d.pop("actor_name", UNSET)

        detail = d.pop("detail", UNSET)

        audit_entry = cls(
            id=id,
            at=at,
            actor=actor,
            action=action,
            target=target,
            status=status,
            request_id=request_id,
            actor_name=actor_name,
            detail=detail,
        )

        return audit_entry
