from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.api_key_info import ApiKeyInfo


T = TypeVar("T", bound="CreatedApiKey")


@_attrs_define(repr=False)
class CreatedApiKey:
    """A newly created key with its secret.

    Attributes:
        key (ApiKeyInfo): An API key as listed (never its secret).
        secret (str): The bearer token to give the client (`pdm_` and 40 characters). Shown only this once.
        display_url (str | Unset): Display keys only: the classroom display page of the key's first single board (a
            contest's runs, or another board's week, or its first window when it keeps no week) with the key in the
            address's fragment, ready to open on the screen. Its address is `PODIUM_PUBLIC_URL`, or the one the request was
            sent to. Absent for other keys, and when every scope is a pattern such as `group:*`.
    """

    key: ApiKeyInfo
    secret: str
    display_url: str | Unset = UNSET

    def __repr__(self) -> str:
        """`CreatedApiKey(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        key = self.key.to_dict()

        secret = self.secret

        display_url = self.display_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
                "secret": secret,
            }
        )
        if display_url is not UNSET:
            field_dict["display_url"] = display_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_key_info import ApiKeyInfo

        d = dict(src_dict)
        key = ApiKeyInfo.from_dict(d.pop("key"))

        secret = d.pop("secret")

        display_url = d.pop("display_url", UNSET)

        created_api_key = cls(
            key=key,
            secret=secret,
            display_url=display_url,
        )

        return created_api_key
