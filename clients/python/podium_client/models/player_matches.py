from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.player_match import PlayerMatch


T = TypeVar("T", bound="PlayerMatches")


@_attrs_define
class PlayerMatches:
    """Players found.

    Attributes:
        players (list[PlayerMatch]): By id prefix first, then by name.
    """

    players: list[PlayerMatch]

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
