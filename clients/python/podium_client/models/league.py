from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.board_metric import BoardMetric, check_board_metric
from ..models.league_status import LeagueStatus, check_league_status
from ..models.tie_break import TieBreak, check_tie_break
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.league_tier import LeagueTier
    from ..models.league_week import LeagueWeek


T = TypeVar("T", bound="League")


@_attrs_define(repr=False)
class League:
    """A league.

    Attributes:
        id (str): The id.
        name (str): The name players see.
        scope (list[str]): Board ids whose completions count.
        time_zone (str): The zone whose ISO weeks are its weeks.
        tiers (list[LeagueTier]): The tiers, lowest first.
        cohort_size (int): The most players in one cohort.
        metric (BoardMetric): Which value of a completion a board ranks by: `points` (the default: points earned),
            `completions` (each completion counts 1; `sum` boards only), `correct` (correct answers), `accuracy` (correct ÷
            total in basis points, 0-10000: 8750 is 87.5 %; `best` and `latest` boards only) or `duration` (the fastest
            perfect run: every answer correct and `duration_ms` given; lower ranks higher; `best` boards only; a score is
            the run's time in milliseconds, kept to the centisecond, and runs slower than 5 h 49 min do not count). A
            completion that is not a perfect, timed run does not count on a `duration` board at all. Contests and leagues
            take `points`, `completions` or `correct`.
        tie_break (TieBreak): How a board ranks equal scores: `shared` (the default) gives tied players the same
            competition rank (1-2-2-4); `earliest` ranks higher the player who reached the score first (by the
            `completed_at` of the completion that reached it); `fastest` ranks higher the player whose scoring completions
            took less `duration_ms` in total; a scoring completion without `duration_ms` counts as the slowest possible, so
            a player with any ranks after every player timed throughout (among them, fewer untimed completions first, then
            less timed play). A full tie under `earliest` or `fastest` (same score and same second, or same total time and
            untimed count) still shares a rank. `run` is the tie-break of every `best` and `latest` board, and only theirs:
            of equal runs, the faster run (its `duration_ms`) ranks higher, then the run reached first (its `completed_at`,
            to the minute); a run without `duration_ms` counts as the slowest. A `duration` board, whose score already is
            the run's time, breaks ties by `earliest`. Set per `sum` board in the rules file (`tie_break`: `shared`,
            `earliest` or `fastest`); best and latest boards leave it out. Contests and leagues take `shared`, `earliest` or
            `fastest`.
        medals (bool): Whether cohorts award medals.
        status (LeagueStatus): `paused`: no completion counts until it is resumed; `ended`: nothing played since its end
            counts.
        created_at (datetime.datetime): When it was created: completions played before count nowhere.
        week (LeagueWeek): A league week.
        paused_at (datetime.datetime | Unset): When it was paused (while it is).
        ended_at (datetime.datetime | Unset): When it ended.
    """

    id: str
    name: str
    scope: list[str]
    time_zone: str
    tiers: list[LeagueTier]
    cohort_size: int
    metric: BoardMetric
    tie_break: TieBreak
    medals: bool
    status: LeagueStatus
    created_at: datetime.datetime
    week: LeagueWeek
    paused_at: datetime.datetime | Unset = UNSET
    ended_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`League(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        scope = self.scope

        time_zone = self.time_zone

        tiers = []
        for tiers_item_data in self.tiers:
            tiers_item = tiers_item_data.to_dict()
            tiers.append(tiers_item)

        cohort_size = self.cohort_size

        metric: str = self.metric

        tie_break: str = self.tie_break

        medals = self.medals

        status: str = self.status

        created_at = self.created_at.isoformat()

        week = self.week.to_dict()

        paused_at: str | Unset = UNSET
        if not isinstance(self.paused_at, Unset):
            paused_at = self.paused_at.isoformat()

        ended_at: str | Unset = UNSET
        if not isinstance(self.ended_at, Unset):
            ended_at = self.ended_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "scope": scope,
                "time_zone": time_zone,
                "tiers": tiers,
                "cohort_size": cohort_size,
                "metric": metric,
                "tie_break": tie_break,
                "medals": medals,
                "status": status,
                "created_at": created_at,
                "week": week,
            }
        )
        if paused_at is not UNSET:
            field_dict["paused_at"] = paused_at
        if ended_at is not UNSET:
            field_dict["ended_at"] = ended_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.league_tier import LeagueTier
        from ..models.league_week import LeagueWeek

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        scope = cast(list[str], d.pop("scope"))

        time_zone = d.pop("time_zone")

        tiers = []
        _tiers = d.pop("tiers")
        for tiers_item_data in _tiers:
            tiers_item = LeagueTier.from_dict(tiers_item_data)

            tiers.append(tiers_item)

        cohort_size = d.pop("cohort_size")

        metric = check_board_metric(d.pop("metric"))

        tie_break = check_tie_break(d.pop("tie_break"))

        medals = d.pop("medals")

        status = check_league_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        week = LeagueWeek.from_dict(d.pop("week"))

        _paused_at = d.pop("paused_at", UNSET)
        paused_at: datetime.datetime | Unset
        if isinstance(_paused_at, Unset):
            paused_at = UNSET
        else:
            paused_at = datetime.datetime.fromisoformat(_paused_at)

        _ended_at = d.pop("ended_at", UNSET)
        ended_at: datetime.datetime | Unset
        if isinstance(_ended_at, Unset):
            ended_at = UNSET
        else:
            ended_at = datetime.datetime.fromisoformat(_ended_at)

        league = cls(
            id=id,
            name=name,
            scope=scope,
            time_zone=time_zone,
            tiers=tiers,
            cohort_size=cohort_size,
            metric=metric,
            tie_break=tie_break,
            medals=medals,
            status=status,
            created_at=created_at,
            week=week,
            paused_at=paused_at,
            ended_at=ended_at,
        )

        return league
