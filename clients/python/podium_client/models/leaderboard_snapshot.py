from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.leaderboard_snapshot_kind import (
    LeaderboardSnapshotKind,
    check_leaderboard_snapshot_kind,
)
from ..types import Unset

if TYPE_CHECKING:
    from ..models.leaderboard_entry import LeaderboardEntry


T = TypeVar("T", bound="LeaderboardSnapshot")


@_attrs_define(repr=False)
class LeaderboardSnapshot:
    """A board period as it stood at one time.

    Attributes:
        kind (LeaderboardSnapshotKind): `scheduled`: the top entries of an open period, taken by the `snapshot-
            leaderboards` job; `final`: the whole board when the period closed, with medals.
        taken_at (datetime.datetime): When it was taken (for `final`, when the period was closed).
        players (int): Players on the board period then.
        entries (list[LeaderboardEntry]): Its best entries (at most `top`), best first; ties in the order the players
            first came to Podium (earliest first), except in snapshots taken before Podium numbered its players, which keep
            user-id order.
    """

    kind: LeaderboardSnapshotKind
    taken_at: datetime.datetime
    players: int
    entries: list[LeaderboardEntry]

    def __repr__(self) -> str:
        """`LeaderboardSnapshot(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        kind: str = self.kind

        taken_at = self.taken_at.isoformat()

        players = self.players

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "taken_at": taken_at,
                "players": players,
                "entries": entries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.leaderboard_entry import LeaderboardEntry

        d = dict(src_dict)
        kind = check_leaderboard_snapshot_kind(d.pop("kind"))

        taken_at = datetime.datetime.fromisoformat(d.pop("taken_at"))

        players = d.pop("players")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = LeaderboardEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        leaderboard_snapshot = cls(
            kind=kind,
            taken_at=taken_at,
            players=players,
            entries=entries,
        )

        return leaderboard_snapshot
