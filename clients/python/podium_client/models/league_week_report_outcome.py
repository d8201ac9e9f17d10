from typing import Literal

LeagueWeekReportOutcome = Literal["closed", "dry-run"]

LEAGUE_WEEK_REPORT_OUTCOME_VALUES: set[LeagueWeekReportOutcome] = {
    "closed",
    "dry-run",
}


def check_league_week_report_outcome(value: str) -> LeagueWeekReportOutcome:
    if value in LEAGUE_WEEK_REPORT_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LEAGUE_WEEK_REPORT_OUTCOME_VALUES!r}"
    )
