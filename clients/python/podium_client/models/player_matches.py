from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import Unset

if TYPE_CHECKING:
    from ..models.player_match import PlayerMatch


T = TypeVar("T", bound="PlayerMatches")


@_attrs_define(repr=False)
class PlayerMatches:
    """Players found.

    Attributes:
        players (list[PlayerMatch]): By id prefix first, then by name.
    """

    players: list[PlayerMatch]

    def __repr__(self) -> str:
        """`PlayerMatches(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "players": players,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.player_match import PlayerMatch

        d = dict(src_dict)
        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = PlayerMatch.from_dict(players_item_data)

            players.append(players_item)

        player_matches = cls(
            players=players,
        )

        return player_matches
