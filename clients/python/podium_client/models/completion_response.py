from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.board_rank import BoardRank
    from ..models.completion_record import CompletionRecord
    from ..models.goal_advance import GoalAdvance
    from ..models.level_progress import LevelProgress
    from ..models.missed_period import MissedPeriod
    from ..models.player_totals import PlayerTotals
    from ..models.streak import Streak
    from ..models.unlocked_achievement import UnlockedAchievement


T = TypeVar("T", bound="CompletionResponse")


@_attrs_define(repr=False)
class CompletionResponse:
    """The answer to a recorded (or replayed) completion.

    Attributes:
        completion (CompletionRecord): A recorded completion.
        points_awarded (int): Points this completion earned.
        totals (PlayerTotals): A player's running totals.
        level (LevelProgress): Where a points total sits on the level curve.
        ranks (list[BoardRank]): The player's ranks on the board periods it counted in; empty when rankings are not
            live.
        rankings_live (bool): False when the live rankings could not be updated: `ranks` is empty and will catch up.
        missed_periods (list[MissedPeriod]): Closed periods it came too late for.
        streak (Streak): Consecutive local days (the player's time zone) with at least one completion. The current run
            counts while its last day is today or yesterday.
        achievements_unlocked (list[UnlockedAchievement]): Achievements this completion unlocked (empty on most
            completions).
        goals (list[GoalAdvance]): The goals this completion counted toward, by goal then group (a class goal once for
            each of its groups the completion was posted for): the progress right after it and whether it reached the
            target. Empty when it counted toward none.
        level_reached (int | Unset): The level this completion reached; present only when it crossed a threshold.
    """

    completion: CompletionRecord
    points_awarded: int
    totals: PlayerTotals
    level: LevelProgress
    ranks: list[BoardRank]
    rankings_live: bool
    missed_periods: list[MissedPeriod]
    streak: Streak
    achievements_unlocked: list[UnlockedAchievement]
    goals: list[GoalAdvance]
    level_reached: int | Unset = UNSET

    def __repr__(self) -> str:
        """`CompletionResponse(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        completion = self.completion.to_dict()

        points_awarded = self.points_awarded

        totals = self.totals.to_dict()

        level = self.level.to_dict()

        ranks = []
        for ranks_item_data in self.ranks:
            ranks_item = ranks_item_data.to_dict()
            ranks.append(ranks_item)

        rankings_live = self.rankings_live

        missed_periods = []
        for missed_periods_item_data in self.missed_periods:
            missed_periods_item = missed_periods_item_data.to_dict()
            missed_periods.append(missed_periods_item)

        streak = self.streak.to_dict()

        achievements_unlocked = []
        for achievements_unlocked_item_data in self.achievements_unlocked:
            achievements_unlocked_item = achievements_unlocked_item_data.to_dict()
            achievements_unlocked.append(achievements_unlocked_item)

        goals = []
        for goals_item_data in self.goals:
            goals_item = goals_item_data.to_dict()
            goals.append(goals_item)

        level_reached = self.level_reached

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "completion": completion,
                "points_awarded": points_awarded,
                "totals": totals,
                "level": level,
                "ranks": ranks,
                "rankings_live": rankings_live,
                "missed_periods": missed_periods,
                "streak": streak,
                "achievements_unlocked": achievements_unlocked,
                "goals": goals,
            }
        )
        if level_reached is not UNSET:
            field_dict["level_reached"] = level_reached

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.board_rank import BoardRank
        from ..models.completion_record import CompletionRecord
        from ..models.goal_advance import GoalAdvance
        from ..models.level_progress import LevelProgress
        from ..models.missed_period import MissedPeriod
        from ..models.player_totals import PlayerTotals
        from ..models.streak import Streak
        from ..models.unlocked_achievement import UnlockedAchievement

        d = dict(src_dict)
        completion = CompletionRecord.from_dict(d.pop("completion"))

        points_awarded = d.pop("points_awarded")

        totals = PlayerTotals.from_dict(d.pop("totals"))

        level = LevelProgress.from_dict(d.pop("level"))

        ranks = []
        _ranks = d.pop("ranks")
        for ranks_item_data in _ranks:
            ranks_item = BoardRank.from_dict(ranks_item_data)

            ranks.append(ranks_item)

        rankings_live = d.pop("rankings_live")

        missed_periods = []
        _missed_periods = d.pop("missed_periods")
        for missed_periods_item_data in _missed_periods:
            missed_periods_item = MissedPeriod.from_dict(missed_periods_item_data)

            missed_periods.append(missed_periods_item)

        streak = Streak.from_dict(d.pop("streak"))

        achievements_unlocked = []
        _achievements_unlocked = d.pop("achievements_unlocked")
        for achievements_unlocked_item_data in _achievements_unlocked:
            achievements_unlocked_item = UnlockedAchievement.from_dict(
                achievements_unlocked_item_data
            )

            achievements_unlocked.append(achievements_unlocked_item)

        goals = []
        _goals = d.pop("goals")
        for goals_item_data in _goals:
            goals_item = GoalAdvance.from_dict(goals_item_data)

            goals.append(goals_item)

        level_reached = d.pop("level_reached", UNSET)

        completion_response = cls(
            completion=completion,
            points_awarded=points_awarded,
            totals=totals,
            level=level,
            ranks=ranks,
            rankings_live=rankings_live,
            missed_periods=missed_periods,
            streak=streak,
            achievements_unlocked=achievements_unlocked,
            goals=goals,
            level_reached=level_reached,
        )

        return completion_response
