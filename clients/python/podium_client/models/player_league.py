from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.league_zone import LeagueZone, check_league_zone
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.league_week import LeagueWeek


T = TypeVar("T", bound="PlayerLeague")


@_attrs_define(repr=False)
class PlayerLeague:
    """Where a player stands in one league.

    Attributes:
        league (str): The league's id.
        name (str): The league's name.
        week (LeagueWeek): A league week.
        seconds_left (int): Seconds until the week ends.
        tier (str): The tier: this week's once placed, else the one the player would enter.
        tier_title (str): The tier's title.
        board (str | Unset): This week's cohort board, once placed (absent before the player's first scoring completion
            of the week).
        rank (int | Unset): Competition rank in the cohort, once placed and ranked.
        players (int | Unset): Players in the cohort, once placed.
        score (int | Unset): Score in the cohort, once placed.
        zone (LeagueZone | Unset): The move a rank would make if the week closed now: up (`promotion`), down
            (`relegation`) or none (`safe`).
    """

    league: str
    name: str
    week: LeagueWeek
    seconds_left: int
    tier: str
    tier_title: str
    board: str | Unset = UNSET
    rank: int | Unset = UNSET
    players: int | Unset = UNSET
    score: int | Unset = UNSET
    zone: LeagueZone | Unset = UNSET

    def __repr__(self) -> str:
        """`PlayerLeague(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        league = self.league

        name = self.name

        week = self.week.to_dict()

        seconds_left = self.seconds_left

        tier = self.tier

        tier_title = self.tier_title

        board = self.board

        rank = self.rank

        players = self.players

        score = self.score

        zone: str | Unset = UNSET
        if not isinstance(self.zone, Unset):
            zone = self.zone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "league": league,
                "name": name,
                "week": week,
                "seconds_left": seconds_left,
                "tier": tier,
                "tier_title": tier_title,
            }
        )
        if board is not UNSET:
            field_dict["board"] = board
        if rank is not UNSET:
            field_dict["rank"] = rank
        if players is not UNSET:
            field_dict["players"] = players
        if score is not UNSET:
            field_dict["score"] = score
        if zone is not UNSET:
            field_dict["zone"] = zone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.league_week import LeagueWeek

        d = dict(src_dict)
        league = d.pop("league")

        name = d.pop("name")

        week = LeagueWeek.from_dict(d.pop("week"))

        seconds_left = d.pop("seconds_left")

        tier = d.pop("tier")

        tier_title = d.pop("tier_title")

        board = d.pop("board", UNSET)

        rank = d.pop("rank", UNSET)

        players = d.pop("players", UNSET)

        score = d.pop("score", UNSET)

        _zone = d.pop("zone", UNSET)
        zone: LeagueZone | Unset
        if isinstance(_zone, Unset):
            zone = UNSET
        else:
            zone = check_league_zone(_zone)

        player_league = cls(
            league=league,
            name=name,
            week=week,
            seconds_left=seconds_left,
            tier=tier,
            tier_title=tier_title,
            board=board,
            rank=rank,
            players=players,
            score=score,
            zone=zone,
        )

        return player_league
