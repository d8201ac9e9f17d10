"""Contains all the data models used in inputs/outputs"""

from .api_key_info import ApiKeyInfo
from .audit_entry import AuditEntry
from .audit_page import AuditPage
from .batch_item_result import BatchItemResult
from .batch_item_result_status import BatchItemResultStatus
from .batch_request import BatchRequest
from .batch_response import BatchResponse
from .board_aggregate import BoardAggregate
from .board_list import BoardList
from .board_metric import BoardMetric
from .board_rank import BoardRank
from .board_summary import BoardSummary
from .close_period_window import ClosePeriodWindow
from .closed_day import ClosedDay
from .closed_day_list import ClosedDayList
from .closed_day_request import ClosedDayRequest
from .compare_request import CompareRequest
from .compared_period import ComparedPeriod
from .compared_period_status import ComparedPeriodStatus
from .completion_history import CompletionHistory
from .completion_record import CompletionRecord
from .completion_request import CompletionRequest
from .completion_response import CompletionResponse
from .contest import Contest
from .contest_contest_entry_mode import ContestContestEntryMode
from .contest_entry import ContestEntry
from .contest_list import ContestList
from .contest_request import ContestRequest
from .contest_request_entry import ContestRequestEntry
from .contest_run import ContestRun
from .contest_schedule import ContestSchedule
from .contest_status import ContestStatus
from .create_key_request import CreateKeyRequest
from .create_webhook_request import CreateWebhookRequest
from .created_api_key import CreatedApiKey
from .difficulty import Difficulty
from .event_page import EventPage
from .event_type import EventType
from .fetch_leaderboard_page_format import FetchLeaderboardPageFormat
from .fetch_open_api_document_response_200 import FetchOpenApiDocumentResponse200
from .field_error import FieldError
from .following_list import FollowingList
from .friend_progress import FriendProgress
from .goal import Goal
from .goal_advance import GoalAdvance
from .goal_kind import GoalKind
from .goal_list import GoalList
from .goal_measure import GoalMeasure
from .goal_progress import GoalProgress
from .goal_request import GoalRequest
from .goal_status import GoalStatus
from .goal_window import GoalWindow
from .group_goals import GroupGoals
from .group_total import GroupTotal
from .group_total_list import GroupTotalList
from .health_status import HealthStatus
from .health_status_status import HealthStatusStatus
from .job_attempt import JobAttempt
from .job_attempt_outcome import JobAttemptOutcome
from .job_list import JobList
from .job_pause_state import JobPauseState
from .job_run import JobRun
from .job_run_list import JobRunList
from .job_run_result import JobRunResult
from .job_run_status import JobRunStatus
from .job_run_trigger import JobRunTrigger
from .job_summary import JobSummary
from .job_summary_misfire import JobSummaryMisfire
from .key_list import KeyList
from .leaderboard_entry import LeaderboardEntry
from .leaderboard_entry_medal import LeaderboardEntryMedal
from .leaderboard_page import LeaderboardPage
from .leaderboard_page_status import LeaderboardPageStatus
from .leaderboard_snapshot import LeaderboardSnapshot
from .leaderboard_snapshot_kind import LeaderboardSnapshotKind
from .leaderboard_window import LeaderboardWindow
from .league import League
from .league_cohort import LeagueCohort
from .league_cohort_page import LeagueCohortPage
from .league_cohort_results import LeagueCohortResults
from .league_list import LeagueList
from .league_move import LeagueMove
from .league_request import LeagueRequest
from .league_result import LeagueResult
from .league_result_medal import LeagueResultMedal
from .league_status import LeagueStatus
from .league_tier import LeagueTier
from .league_tier_request import LeagueTierRequest
from .league_tier_summary import LeagueTierSummary
from .league_week import LeagueWeek
from .league_week_report import LeagueWeekReport
from .league_week_report_outcome import LeagueWeekReportOutcome
from .league_zone import LeagueZone
from .level_progress import LevelProgress
from .list_leaderboards_kind import ListLeaderboardsKind
from .list_periods_window import ListPeriodsWindow
from .medal_award import MedalAward
from .medal_award_medal import MedalAwardMedal
from .medal_list import MedalList
from .missed_period import MissedPeriod
from .outbox_event import OutboxEvent
from .outbox_event_data import OutboxEventData
from .period_close_report import PeriodCloseReport
from .period_close_report_outcome import PeriodCloseReportOutcome
from .period_comparison import PeriodComparison
from .period_list import PeriodList
from .period_summary import PeriodSummary
from .period_summary_status import PeriodSummaryStatus
from .player_league import PlayerLeague
from .player_league_list import PlayerLeagueList
from .player_match import PlayerMatch
from .player_matches import PlayerMatches
from .player_totals import PlayerTotals
from .preferences_request import PreferencesRequest
from .preferences_response import PreferencesResponse
from .problem import Problem
from .rank_history import RankHistory
from .rank_point import RankPoint
from .rank_point_kind import RankPointKind
from .rebuild_answer import RebuildAnswer
from .record_completion_batch_mode import RecordCompletionBatchMode
from .reminder_preferences import ReminderPreferences
from .reminder_preferences_days_item import ReminderPreferencesDaysItem
from .reminder_preferences_request import ReminderPreferencesRequest
from .reminder_preferences_request_days_item import ReminderPreferencesRequestDaysItem
from .role import Role
from .run_job_request import RunJobRequest
from .run_job_request_slot_type_0 import RunJobRequestSlotType0
from .snapshot_list import SnapshotList
from .streak import Streak
from .stream_leaderboard_response_200 import StreamLeaderboardResponse200
from .stream_leaderboard_response_200_event import StreamLeaderboardResponse200Event
from .sum_metric import SumMetric
from .sum_tie_break import SumTieBreak
from .tie_break import TieBreak
from .time_zone import TimeZone
from .topic_list import TopicList
from .topic_statistics import TopicStatistics
from .unlocked_achievement import UnlockedAchievement
from .user_profile import UserProfile
from .webhook import Webhook
from .webhook_attempt import WebhookAttempt
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_list import WebhookDeliveryList
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_list import WebhookList
from .webhook_test_result import WebhookTestResult
from .window_summary import WindowSummary

__all__ = (
    "ApiKeyInfo",
    "AuditEntry",
    "AuditPage",
    "BatchItemResult",
    "BatchItemResultStatus",
    "BatchRequest",
    "BatchResponse",
    "BoardAggregate",
    "BoardList",
    "BoardMetric",
    "BoardRank",
    "BoardSummary",
    "ClosePeriodWindow",
    "ClosedDay",
    "ClosedDayList",
    "ClosedDayRequest",
    "CompareRequest",
    "ComparedPeriod",
    "ComparedPeriodStatus",
    "CompletionHistory",
    "CompletionRecord",
    "CompletionRequest",
    "CompletionResponse",
    "Contest",
    "ContestContestEntryMode",
    "ContestEntry",
    "ContestList",
    "ContestRequest",
    "ContestRequestEntry",
    "ContestRun",
    "ContestSchedule",
    "ContestStatus",
    "CreateKeyRequest",
    "CreateWebhookRequest",
    "CreatedApiKey",
    "Difficulty",
    "EventPage",
    "EventType",
    "FetchLeaderboardPageFormat",
    "FetchOpenApiDocumentResponse200",
    "FieldError",
    "FollowingList",
    "FriendProgress",
    "Goal",
    "GoalAdvance",
    "GoalKind",
    "GoalList",
    "GoalMeasure",
    "GoalProgress",
    "GoalRequest",
    "GoalStatus",
    "GoalWindow",
    "GroupGoals",
    "GroupTotal",
    "GroupTotalList",
    "HealthStatus",
    "HealthStatusStatus",
    "JobAttempt",
    "JobAttemptOutcome",
    "JobList",
    "JobPauseState",
    "JobRun",
    "JobRunList",
    "JobRunResult",
    "JobRunStatus",
    "JobRunTrigger",
    "JobSummary",
    "JobSummaryMisfire",
    "KeyList",
    "LeaderboardEntry",
    "LeaderboardEntryMedal",
    "LeaderboardPage",
    "LeaderboardPageStatus",
    "LeaderboardSnapshot",
    "LeaderboardSnapshotKind",
    "LeaderboardWindow",
    "League",
    "LeagueCohort",
    "LeagueCohortPage",
    "LeagueCohortResults",
    "LeagueList",
    "LeagueMove",
    "LeagueRequest",
    "LeagueResult",
    "LeagueResultMedal",
    "LeagueStatus",
    "LeagueTier",
    "LeagueTierRequest",
    "LeagueTierSummary",
    "LeagueWeek",
    "LeagueWeekReport",
    "LeagueWeekReportOutcome",
    "LeagueZone",
    "LevelProgress",
    "ListLeaderboardsKind",
    "ListPeriodsWindow",
    "MedalAward",
    "MedalAwardMedal",
    "MedalList",
    "MissedPeriod",
    "OutboxEvent",
    "OutboxEventData",
    "PeriodCloseReport",
    "PeriodCloseReportOutcome",
    "PeriodComparison",
    "PeriodList",
    "PeriodSummary",
    "PeriodSummaryStatus",
    "PlayerLeague",
    "PlayerLeagueList",
    "PlayerMatch",
    "PlayerMatches",
    "PlayerTotals",
    "PreferencesRequest",
    "PreferencesResponse",
    "Problem",
    "RankHistory",
    "RankPoint",
    "RankPointKind",
    "RebuildAnswer",
    "RecordCompletionBatchMode",
    "ReminderPreferences",
    "ReminderPreferencesDaysItem",
    "ReminderPreferencesRequest",
    "ReminderPreferencesRequestDaysItem",
    "Role",
    "RunJobRequest",
    "RunJobRequestSlotType0",
    "SnapshotList",
    "Streak",
    "StreamLeaderboardResponse200",
    "StreamLeaderboardResponse200Event",
    "SumMetric",
    "SumTieBreak",
    "TieBreak",
    "TimeZone",
    "TopicList",
    "TopicStatistics",
    "UnlockedAchievement",
    "UserProfile",
    "Webhook",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookDeliveryList",
    "WebhookDeliveryStatus",
    "WebhookList",
    "WebhookTestResult",
    "WindowSummary",
)
