from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.board_metric import BoardMetric, check_board_metric
from ..models.contest_contest_entry_mode import (
    ContestContestEntryMode,
    check_contest_contest_entry_mode,
)
from ..models.contest_schedule import ContestSchedule, check_contest_schedule
from ..models.contest_status import ContestStatus, check_contest_status
from ..models.tie_break import TieBreak, check_tie_break
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contest_run import ContestRun


T = TypeVar("T", bound="Contest")


@_attrs_define(repr=False)
class Contest:
    """A contest.

    Attributes:
        id (str): The id.
        board (str): Its board id, `contest:<id>`, for every leaderboard route (window `contest`).
        title (str): The title.
        scope (list[str]): Board ids whose completions count.
        schedule (ContestSchedule): One run, or runs on a cron schedule.
        time_zone (str): The zone runs are scheduled and shown in.
        entry (ContestContestEntryMode): Who takes part.
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
        medals (bool): Whether runs award medals.
        status (ContestStatus): `scheduled`: no run has started; `running`: a run is under way; `between-runs`: the
            latest ended and another is to come; `ended`: none is to come; `cancelled`.
        next_runs (list[ContestRun]): Up to three runs still to start, earliest first.
        starts_at (datetime.datetime | Unset): Once: the run's start. Recurring: the earliest a run may start (absent
            when unbounded).
        ends_at (datetime.datetime | Unset): Once: the run's end. Recurring: no run starts at or after it (absent when
            unbounded).
        cron (str | Unset): Recurring: when runs start.
        schedule_words (str | Unset): Recurring: `cron` in words ("every Friday at 14:00"), or the expression itself
            when no short phrase says it.
        duration_minutes (int | Unset): Recurring: how long each run lasts at most.
        max_players (int | Unset): `join` contests: the most players who may join.
        players_joined (int | Unset): `join` contests: how many joined.
        cancelled_at (datetime.datetime | Unset): When it was cancelled.
        current_run (ContestRun | Unset): One run of a contest.
    """

    id: str
    board: str
    title: str
    scope: list[str]
    schedule: ContestSchedule
    time_zone: str
    entry: ContestContestEntryMode
    metric: BoardMetric
    tie_break: TieBreak
    medals: bool
    status: ContestStatus
    next_runs: list[ContestRun]
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    cron: str | Unset = UNSET
    schedule_words: str | Unset = UNSET
    duration_minutes: int | Unset = UNSET
    max_players: int | Unset = UNSET
    players_joined: int | Unset = UNSET
    cancelled_at: datetime.datetime | Unset = UNSET
    current_run: ContestRun | Unset = UNSET

    def __repr__(self) -> str:
        """`Contest(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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

        board = self.board

        title = self.title

        scope = self.scope

        schedule: str = self.schedule

        time_zone = self.time_zone

        entry: str = self.entry

        metric: str = self.metric

        tie_break: str = self.tie_break

        medals = self.medals

        status: str = self.status

        next_runs = []
        for next_runs_item_data in self.next_runs:
            next_runs_item = next_runs_item_data.to_dict()
            next_runs.append(next_runs_item)

        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()

        ends_at: str | Unset = UNSET
        if not isinstance(self.ends_at, Unset):
            ends_at = self.ends_at.isoformat()

        cron = self.cron

        schedule_words = self.schedule_words

        duration_minutes = self.duration_minutes

        max_players = self.max_players

        players_joined = self.players_joined

        cancelled_at: str | Unset = UNSET
        if not isinstance(self.cancelled_at, Unset):
            cancelled_at = self.cancelled_at.isoformat()

        current_run: dict[str, Any] | Unset = UNSET
        if not isinstance(self.current_run, Unset):
            current_run = self.current_run.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "board": board,
                "title": title,
                "scope": scope,
                "schedule": schedule,
                "time_zone": time_zone,
                "entry": entry,
                "metric": metric,
                "tie_break": tie_break,
                "medals": medals,
                "status": status,
                "next_runs": next_runs,
            }
        )
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if cron is not UNSET:
            field_dict["cron"] = cron
        if schedule_words is not UNSET:
            field_dict["schedule_words"] = schedule_words
        if duration_minutes is not UNSET:
            field_dict["duration_minutes"] = duration_minutes
        if max_players is not UNSET:
            field_dict["max_players"] = max_players
        if players_joined is not UNSET:
            field_dict["players_joined"] = players_joined
        if cancelled_at is not UNSET:
            field_dict["cancelled_at"] = cancelled_at
        if current_run is not UNSET:
            field_dict["current_run"] = current_run

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contest_run import ContestRun

        d = dict(src_dict)
        id = d.pop("id")

        board = d.pop("board")

        title = d.pop("title")

        scope = cast(list[str], d.pop("scope"))

        schedule = check_contest_schedule(d.pop("schedule"))

        time_zone = d.pop("time_zone")

        entry = check_contest_contest_entry_mode(d.pop("entry"))

        metric = check_board_metric(d.pop("metric"))

        tie_break = check_tie_break(d.pop("tie_break"))

        medals = d.pop("medals")

        status = check_contest_status(d.pop("status"))

        next_runs = []
        _next_runs = d.pop("next_runs")
        for next_runs_item_data in _next_runs:
            next_runs_item = ContestRun.from_dict(next_runs_item_data)

            next_runs.append(next_runs_item)

        _starts_at = d.pop("starts_at", UNSET)
        starts_at: datetime.datetime | Unset
        if isinstance(_starts_at, Unset):
            starts_at = UNSET
        else:
            starts_at = datetime.datetime.fromisoformat(_starts_at)

        _ends_at = d.pop("ends_at", UNSET)
        ends_at: datetime.datetime | Unset
        if isinstance(_ends_at, Unset):
            ends_at = UNSET
        else:
            ends_at = datetime.datetime.fromisoformat(_ends_at)

        cron = d.pop("cron", UNSET)

        schedule_words = d.pop("schedule_words", UNSET)

        duration_minutes = d.pop("duration_minutes", UNSET)

        max_players = d.pop("max_players", UNSET)

        players_joined = d.pop("players_joined", UNSET)

        _cancelled_at = d.pop("cancelled_at", UNSET)
        cancelled_at: datetime.datetime | Unset
        if isinstance(_cancelled_at, Unset):
            cancelled_at = UNSET
        else:
            cancelled_at = datetime.datetime.fromisoformat(_cancelled_at)

        _current_run = d.pop("current_run", UNSET)
        current_run: ContestRun | Unset
        if isinstance(_current_run, Unset):
            current_run = UNSET
        else:
            current_run = ContestRun.from_dict(_current_run)

        contest = cls(
            id=id,
            board=board,
            title=title,
            scope=scope,
            schedule=schedule,
            time_zone=time_zone,
            entry=entry,
            metric=metric,
            tie_break=tie_break,
            medals=medals,
            status=status,
            next_runs=next_runs,
            starts_at=starts_at,
            ends_at=ends_at,
            cron=cron,
            schedule_words=schedule_words,
            duration_minutes=duration_minutes,
            max_players=max_players,
            players_joined=players_joined,
            cancelled_at=cancelled_at,
            current_run=current_run,
        )

        return contest
