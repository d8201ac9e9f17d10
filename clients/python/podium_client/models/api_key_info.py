from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.role import Role, check_role
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApiKeyInfo")


@_attrs_define(repr=False)
class ApiKeyInfo:
    """An API key as listed (never its secret).

    Attributes:
        id (str): Key id.
        name (str): What the key is for.
        role (Role): What an API key may do: `ingest` posts completions and sets preferences, `read` reads leaderboards
            and players (within its scopes, if it has any), `admin` may do everything, `display` reads leaderboard pages of
            its scoped boards only (safe in a classroom display's URL).
        scopes (list[str]): Boards a read key is limited to, or a display key shows; empty: every board.
        prefix (str): The first 8 characters of the secret, to recognise it.
        created_at (datetime.datetime): When it was created.
        revoked_at (datetime.datetime | Unset): When it was revoked; absent while valid.
        expires_at (datetime.datetime | Unset): When the key stops working (every request with it is then 401, and its
            open live streams end); absent when it works until revoked.
    """

    id: str
    name: str
    role: Role
    scopes: list[str]
    prefix: str
    created_at: datetime.datetime
    revoked_at: datetime.datetime | Unset = UNSET
    expires_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`ApiKeyInfo(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        name = self.name

        role: str = self.role

        scopes = self.scopes

        prefix = self.prefix

        created_at = self.created_at.isoformat()

        revoked_at: str | Unset = UNSET
        if not isinstance(self.revoked_at, Unset):
            revoked_at = self.revoked_at.isoformat()

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "role": role,
                "scopes": scopes,
                "prefix": prefix,
                "created_at": created_at,
            }
        )
        if revoked_at is not UNSET:
            field_dict["revoked_at"] = revoked_at
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        role = check_role(d.pop("role"))

        scopes = cast(list[str], d.pop("scopes"))

        prefix = d.pop("prefix")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        _revoked_at = d.pop("revoked_at", UNSET)
        revoked_at: datetime.datetime | Unset
        if isinstance(_revoked_at, Unset):
            revoked_at = UNSET
        else:
            revoked_at = datetime.datetime.fromisoformat(_revoked_at)

        _expires_at = d.pop("expires_at", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)

        api_key_info = cls(
            id=id,
            name=name,
            role=role,
            scopes=scopes,
            prefix=prefix,
            created_at=created_at,
            revoked_at=revoked_at,
            expires_at=expires_at,
        )

        return api_key_info
