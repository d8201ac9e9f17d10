from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.league_move import LeagueMove, check_league_move
from ..models.league_result_medal import LeagueResultMedal, check_league_result_medal
from ..types import UNSET, Unset

T = TypeVar("T", bound="LeagueResult")


@_attrs_define(repr=False)
class LeagueResult:
    """What a week's close did (or would do) to one player.

    Attributes:
        user_id (str):
        period (str): The week.
        board (str): The cohort's board id.
        tier (str): The tier played in.
        rank (int): Final competition rank in the cohort.
        score (int): Final score.
        move (LeagueMove): What a close does to a player: up a tier, down a tier, or the same tier.
        next_tier (str): The tier for the next week.
        display_name (str | Unset): The player's display name, when they have one.
        medal (LeagueResultMedal | Unset): The medal the close awards (or awarded), in a league that awards medals.
    """

    user_id: str
    period: str
    board: str
    tier: str
    rank: int
    score: int
    move: LeagueMove
    next_tier: str
    display_name: str | Unset = UNSET
    medal: LeagueResultMedal | Unset = UNSET

    def __repr__(self) -> str:
        """`LeagueResult(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        user_id = self.user_id

        period = self.period

        board = self.board

        tier = self.tier

        rank = self.rank

        score = self.score

        move: str = self.move

        next_tier = self.next_tier

        display_name = self.display_name

        medal: str | Unset = UNSET
        if not isinstance(self.medal, Unset):
            medal = self.medal

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "period": period,
                "board": board,
                "tier": tier,
                "rank": rank,
                "score": score,
                "move": move,
                "next_tier": next_tier,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if medal is not UNSET:
            field_dict["medal"] = medal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        period = d.pop("period")

        board = d.pop("board")

        tier = d.pop("tier")

        rank = d.pop("rank")

        score = d.pop("score")

        move = check_league_move(d.pop("move"))

        next_tier = d.pop("next_tier")

        display_name = d.pop("display_name", UNSET)

        _medal = d.pop("medal", UNSET)
        medal: LeagueResultMedal | Unset
        if isinstance(_medal, Unset):
            medal = UNSET
        else:
            medal = check_league_result_medal(_medal)

        league_result = cls(
            user_id=user_id,
            period=period,
            board=board,
            tier=tier,
            rank=rank,
            score=score,
            move=move,
            next_tier=next_tier,
            display_name=display_name,
            medal=medal,
        )

        return league_result
