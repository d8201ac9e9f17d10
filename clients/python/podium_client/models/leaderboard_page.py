from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import fields as _attrs_fields

from ..models.board_aggregate import BoardAggregate, check_board_aggregate
from ..models.board_metric import BoardMetric, check_board_metric
from ..models.leaderboard_page_status import (
    LeaderboardPageStatus,
    check_leaderboard_page_status,
)
from ..models.leaderboard_window import LeaderboardWindow, check_leaderboard_window
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.leaderboard_entry import LeaderboardEntry
    from ..models.league_cohort_page import LeagueCohortPage


T = TypeVar("T", bound="LeaderboardPage")


@_attrs_define(repr=False)
class LeaderboardPage:
    """A page of one board period.

    Attributes:
        board (str): Board id.
        window (LeaderboardWindow): Time window of a board: `all` never ends; `day`, `week` (ISO, from Monday) and
            `month` are cut in the board's time zone; `contest` is the one window of a contest's board, whose periods are
            the contest's runs.
        period (str): Period name: `all`, `2026-11-21`, `2026-W47`, `2026-11`, or a contest run's start in UTC
            (`20261127T1400Z`).
        time_zone (str): IANA time zone the board's periods are cut in; the bounds above are in UTC, so a display names
            the period by its local dates in this zone.
        metric (BoardMetric): Which value of a completion a board ranks by: `points` (the default: points earned),
            `completions` (each completion counts 1; `sum` boards only), `correct` (correct answers), `accuracy` (correct ÷
            total in basis points, 0-10000: 8750 is 87.5 %; `best` and `latest` boards only) or `duration` (the fastest
            perfect run: every answer correct and `duration_ms` given; lower ranks higher; `best` boards only; a score is
            the run's time in milliseconds, kept to the centisecond, and runs slower than 5 h 49 min do not count). A
            completion that is not a perfect, timed run does not count on a `duration` board at all. Contests and leagues
            take `points`, `completions` or `correct`.
        aggregate (BoardAggregate): How a board turns a player's completions in a period into a score: `sum` (the
            default: the metric summed over the period's completions), `best` (the player's best single completion of the
            period: a better one replaces it, a worse one changes nothing) or `latest` (the player's most recent completion
            of the period, by `completed_at`: a later run replaces an earlier one even when worse; at the same instant the
            better one stays). A replayed completion id counts once. Best and latest boards break ties by the run
            (`tie_break` `run`; `earliest` on a `duration` board). Set per board in the rules file (`aggregate`); contest
            and league boards are always `sum`.
        status (LeaderboardPageStatus): Whether the period still accepts completions (every run of a cancelled contest
            is `closed`).
        players (int): Players on the board period.
        live (bool): False when Redis failed and the page was served from PostgreSQL instead (degraded: it may trail the
            latest completions for a moment); true otherwise. A closed period read from its final snapshot is final, so it
            is true as well.
        offset (int): Position of the first entry, 0-based.
        entries (list[LeaderboardEntry]): Entries, best first; ties in the order the players first came to Podium
            (earliest first), except on boards closed before Podium numbered its players, which keep the user-id order they
            closed with.
        starts_at (datetime.datetime | Unset): Start of the period; absent for `all`.
        ends_at (datetime.datetime | Unset): End of the period, exclusive; absent for `all`.
        closes_at (datetime.datetime | Unset): When the period closes (end plus grace); absent for `all`.
        title (str | Unset): The title on a contest's board (its title) or a league cohort's (`<league> · <tier> ·
            Cohort <n>`); absent on calendar boards.
        league (LeagueCohortPage | Unset): On a league cohort's board: its league and tier, and how many of it move up
            and down at the close (the display draws a line under the promotion zone and above the relegation zone).
        cancelled_at (datetime.datetime | Unset): On a cancelled contest's board: when it was cancelled. Its runs then
            take no score, so `status` is `closed`.
        next_starts_at (datetime.datetime | Unset): On a contest's board: when the run after this one starts; absent
            when no run is to come.
    """

    board: str
    window: LeaderboardWindow
    period: str
    time_zone: str
    metric: BoardMetric
    aggregate: BoardAggregate
    status: LeaderboardPageStatus
    players: int
    live: bool
    offset: int
    entries: list[LeaderboardEntry]
    starts_at: datetime.datetime | Unset = UNSET
    ends_at: datetime.datetime | Unset = UNSET
    closes_at: datetime.datetime | Unset = UNSET
    title: str | Unset = UNSET
    league: LeagueCohortPage | Unset = UNSET
    cancelled_at: datetime.datetime | Unset = UNSET
    next_starts_at: datetime.datetime | Unset = UNSET

    def __repr__(self) -> str:
        """`LeaderboardPage(field=value, ...)` with the fields that are set: unset optional fields are left out."""
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
        board = self.board

        window: str = self.window

        period = self.period

        time_zone = self.time_zone

        metric: str = self.metric

        aggregate: str = self.aggregate

        status: str = self.status

        players = self.players

        live = self.live

        offset = self.offset

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        starts_at: str | Unset = UNSET
        if not isinstance(self.starts_at, Unset):
            starts_at = self.starts_at.isoformat()

        ends_at: str | Unset = UNSET
        if not isinstance(self.ends_at, Unset):
            ends_at = self.ends_at.isoformat()

        closes_at: str | Unset = UNSET
        if not isinstance(self.closes_at, Unset):
            closes_at = self.closes_at.isoformat()

        title = self.title

        league: dict[str, Any] | Unset = UNSET
        if not isinstance(self.league, Unset):
            league = self.league.to_dict()

        cancelled_at: str | Unset = UNSET
        if not isinstance(self.cancelled_at, Unset):
            cancelled_at = self.cancelled_at.isoformat()

        next_starts_at: str | Unset = UNSET
        if not isinstance(self.next_starts_at, Unset):
            next_starts_at = self.next_starts_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "board": board,
                "window": window,
                "period": period,
                "time_zone": time_zone,
                "metric": metric,
                "aggregate": aggregate,
                "status": status,
                "players": players,
                "live": live,
                "offset": offset,
                "entries": entries,
            }
        )
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if closes_at is not UNSET:
            field_dict["closes_at"] = closes_at
        if title is not UNSET:
            field_dict["title"] = title
        if league is not UNSET:
            field_dict["league"] = league
        if cancelled_at is not UNSET:
            field_dict["cancelled_at"] = cancelled_at
        if next_starts_at is not UNSET:
            field_dict["next_starts_at"] = next_starts_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.leaderboard_entry import LeaderboardEntry
        from ..models.league_cohort_page import LeagueCohortPage

        d = dict(src_dict)
        board = d.pop("board")

        window = check_leaderboard_window(d.pop("window"))

        period = d.pop("period")

        time_zone = d.pop("time_zone")

        metric = check_board_metric(d.pop("metric"))

        aggregate = check_board_aggregate(d.pop("aggregate"))

        status = check_leaderboard_page_status(d.pop("status"))

        players = d.pop("players")

        live = d.pop("live")

        offset = d.pop("offset")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = LeaderboardEntry.from_dict(entries_item_data)

            entries.append(entries_item)

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

        _closes_at = d.pop("closes_at", UNSET)
        closes_at: datetime.datetime | Unset
        if isinstance(_closes_at, Unset):
            closes_at = UNSET
        else:
            closes_at = datetime.datetime.fromisoformat(_closes_at)

        title = d.pop("title", UNSET)

        _league = d.pop("league", UNSET)
        league: LeagueCohortPage | Unset
        if isinstance(_league, Unset):
            league = UNSET
        else:
            league = LeagueCohortPage.from_dict(_league)

        _cancelled_at = d.pop("cancelled_at", UNSET)
        cancelled_at: datetime.datetime | Unset
        if isinstance(_cancelled_at, Unset):
            cancelled_at = UNSET
        else:
            cancelled_at = datetime.datetime.fromisoformat(_cancelled_at)

        _next_starts_at = d.pop("next_starts_at", UNSET)
        next_starts_at: datetime.datetime | Unset
        if isinstance(_next_starts_at, Unset):
            next_starts_at = UNSET
        else:
            next_starts_at = datetime.datetime.fromisoformat(_next_starts_at)

        leaderboard_page = cls(
            board=board,
            window=window,
            period=period,
            time_zone=time_zone,
            metric=metric,
            aggregate=aggregate,
            status=status,
            players=players,
            live=live,
            offset=offset,
            entries=entries,
            starts_at=starts_at,
            ends_at=ends_at,
            closes_at=closes_at,
            title=title,
            league=league,
            cancelled_at=cancelled_at,
            next_starts_at=next_starts_at,
        )

        return leaderboard_page
