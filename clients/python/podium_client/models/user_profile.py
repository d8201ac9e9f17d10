from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.board_rank import BoardRank
    from ..models.friend_progress import FriendProgress
    from ..models.goal_progress import GoalProgress
    from ..models.level_progress import LevelProgress
    from ..models.medal_award import MedalAward
    from ..models.player_league import PlayerLeague
    from ..models.player_totals import PlayerTotals
    from ..models.streak import Streak
    from ..models.unlocked_achievement import UnlockedAchievement


T = TypeVar("T", bound="UserProfile")


@_attrs_define(repr=False)
class UserProfile:
    """A player's profile.

    Attributes:
        user_id (str): Player id.
        time_zone (str): IANA time zone.
        totals (PlayerTotals): A player's running totals.
        level (LevelProgress): Where a points total sits on the level curve.
        ranks (list[BoardRank]): Ranks on the current period of every board the player is on.
        rankings_live (bool): False when ranks came from PostgreSQL because Redis failed.
        created_at (datetime.datetime): Time of the player's first completion or preference.
        medals (list[MedalAward]): Medals won on closed periods, newest first.
        streak (Streak): Consecutive local days (the player's time zone) with at least one completion. The current run
            counts while its last day is today or yesterday.
        achievements (list[UnlockedAchievement]): Achievements unlocked, oldest first.
        friends (list[FriendProgress]): The players this one follows, with their latest progress, most points this week
            first (a scoped key sees those on its boards).
        leagues (list[PlayerLeague]): Where the player stands in the leagues they play (tier, this week's cohort, rank,
            zone, time left), by league id.
        goals (list[GoalProgress]): The player's goals in their periods under way, by goal then group: every goal not
            ended that is global, or of a topic the player played, or of groups the player plays for (the groups of their
            latest 50 completions); personal goals with the player's own progress, class goals with each of their groups'. A
            scoped key sees those of its boards.
        display_name (str | Unset): Display name, if set.
    """

    user_id: str
    time_zone: str
    totals: PlayerTotals
    level: LevelProgress
    ranks: list[BoardRank]
    rankings_live: bool
    created_at: datetime.datetime
    medals: list[MedalAward]
    streak: Streak
    achievements: list[UnlockedAchievement]
    friends: list[FriendProgress]
    leagues: list[PlayerLeague]
    goals: list[GoalProgress]
    display_name: str | Unset = UNSET

    def __repr__(self) -> str:
        """`UserProfile(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        time_zone = self.time_zone

        totals = self.totals.to_dict()

        level = self.level.to_dict()

        ranks = []
        for ranks_item_data in self.ranks:
            ranks_item = ranks_item_data.to_dict()
            ranks.append(ranks_item)

        rankings_live = self.rankings_live

        created_at = self.created_at.isoformat()

        medals = []
        for medals_item_data in self.medals:
            medals_item = medals_item_data.to_dict()
            medals.append(medals_item)

        streak = self.streak.to_dict()

        achievements = []
        for achievements_item_data in self.achievements:
            achievements_item = achievements_item_data.to_dict()
            achievements.append(achievements_item)

        friends = []
        for friends_item_data in self.friends:
            friends_item = friends_item_data.to_dict()
            friends.append(friends_item)

        leagues = []
        for leagues_item_data in self.leagues:
            leagues_item = leagues_item_data.to_dict()
            leagues.append(leagues_item)

        goals = []
        for goals_item_data in self.goals:
            goals_item = goals_item_data.to_dict()
            goals.append(goals_item)

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "time_zone": time_zone,
                "totals": totals,
                "level": level,
                "ranks": ranks,
                "rankings_live": rankings_live,
                "created_at": created_at,
                "medals": medals,
                "streak": streak,
                "achievements": achievements,
                "friends": friends,
                "leagues": leagues,
                "goals": goals,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.board_rank import BoardRank
        from ..models.friend_progress import FriendProgress
        from ..models.goal_progress import GoalProgress
        from ..models.level_progress import LevelProgress
        from ..models.medal_award import MedalAward
        from ..models.player_league import PlayerLeague
        from ..models.player_totals import PlayerTotals
        from ..models.streak import Streak
        from ..models.unlocked_achievement import UnlockedAchievement

        d = dict(src_dict)
        user_id = d.pop("user_id")

        time_zone = d.pop("time_zone")

        totals = PlayerTotals.from_dict(d.pop("totals"))

        level = LevelProgress.from_dict(d.pop("level"))

        ranks = []
        _ranks = d.pop("ranks")
        for ranks_item_data in _ranks:
            ranks_item = BoardRank.from_dict(ranks_item_data)

            ranks.append(ranks_item)

        rankings_live = d.pop("rankings_live")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        medals = []
        _medals = d.pop("medals")
        for medals_item_data in _medals:
            medals_item = MedalAward.from_dict(medals_item_data)

            medals.append(medals_item)

        streak = Streak.from_dict(d.pop("streak"))

        achievements = []
        _achievements = d.pop("achievements")
        for achievements_item_data in _achievements:
            achievements_item = UnlockedAchievement.from_dict(achievements_item_data)

            achievements.append(achievements_item)

        friends = []
        _friends = d.pop("friends")
        for friends_item_data in _friends:
            friends_item = FriendProgress.from_dict(friends_item_data)

            friends.append(friends_item)

        leagues = []
        _leagues = d.pop("leagues")
        for leagues_item_data in _leagues:
            leagues_item = PlayerLeague.from_dict(leagues_item_data)

            leagues.append(leagues_item)

        goals = []
        _goals = d.pop("goals")
        for goals_item_data in _goals:
            goals_item = GoalProgress.from_dict(goals_item_data)

            goals.append(goals_item)

        display_name = d.pop("display_name", UNSET)

        user_profile = cls(
            user_id=user_id,
            time_zone=time_zone,
            totals=totals,
            level=level,
            ranks=ranks,
            rankings_live=rankings_live,
            created_at=created_at,
            medals=medals,
            streak=streak,
            achievements=achievements,
            friends=friends,
            leagues=leagues,
            goals=goals,
            display_name=display_name,
        )

        return user_profile
