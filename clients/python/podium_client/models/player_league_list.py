from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.player_league import PlayerLeague


T = TypeVar("T", bound="PlayerLeagueList")


@_attrs_define(repr=False)
class PlayerLeagueList:
    """A player's leagues, by league id.

    Attributes:
        leagues (list[PlayerLeague]):
    """

    leagues: list[PlayerLeague]

    def __repr__(self) -> str:
        """`PlayerLeagueList(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        leagues = []
        for leagues_item_data in self.leagues:
            leagues_item = leagues_item_data.to_dict()
            leagues.append(leagues_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "leagues": leagues,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.player_league import PlayerLeague

        d = dict(src_dict)
        leagues = []
        _leagues = d.pop("leagues")
        for leagues_item_data in _leagues:
            leagues_item = PlayerLeague.from_dict(leagues_item_data)

            leagues.append(leagues_item)

        player_league_list = cls(
            leagues=leagues,
        )

        return player_league_list
