-- One row per board and player for what a completion changes: the all-time score and the current day, week and month
-- periods (issue 24). A completion on a global, a topic and a group board now updates three rows instead of twelve.
--
-- board_current_scores  each (board, player): the all-time score and, per calendar window, the newest period the
--                       player scored in with its score and tie-break columns (NULL: no period of that window yet).
-- board_period_scores   every other (board, window, period, player): periods a newer one has rolled over, late
--                       completions to an older period, and contest runs. It is the former board_scores table.
-- board_scores          a view of both, one row per (board, window, period, player), as readers always saw it.
--
-- A (board, window, period, player) lives in exactly one of the two tables. Only a completion batch moves a period
-- from the first to the second, under its player's users row lock (see CompletionStore).
ALTER TABLE board_scores RENAME TO board_period_scores;
ALTER INDEX board_scores_pkey RENAME TO board_period_scores_pkey;
ALTER INDEX board_scores_user RENAME TO board_period_scores_user;

CREATE TABLE board_current_scores (
    board                          text NOT NULL,
    user_id                        text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    updated_at                     timestamptz NOT NULL,
    all_score                      bigint,
    all_reached_at                 timestamptz,
    all_duration_ms                bigint NOT NULL DEFAULT 0,
    all_untimed_completions        bigint NOT NULL DEFAULT 0,
    day_period                     text,
    day_score                      bigint,
    day_reached_at                 timestamptz,
    day_duration_ms                bigint NOT NULL DEFAULT 0,
    day_untimed_completions        bigint NOT NULL DEFAULT 0,
    week_period                    text,
    week_score                     bigint,
    week_reached_at                timestamptz,
    week_duration_ms               bigint NOT NULL DEFAULT 0,
    week_untimed_completions       bigint NOT NULL DEFAULT 0,
    month_period                   text,
    month_score                    bigint,
    month_reached_at               timestamptz,
    month_duration_ms              bigint NOT NULL DEFAULT 0,
    month_untimed_completions      bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (board, user_id),
    CHECK ((day_period IS NULL) = (day_score IS NULL)),
    CHECK ((week_period IS NULL) = (week_score IS NULL)),
    CHECK ((month_period IS NULL) = (month_score IS NULL))
) WITH (fillfactor = 80);  -- room for HOT updates: a score changes on every completion, a period once a period

-- A player's rows (erasure, profiles), and one board period's rows in player order (reads from PostgreSQL, closes, a
-- rebuild's walk). The period columns change only when a player's period rolls over, so updates within a period stay
-- HOT. Rows without a period of the window are left out: a board of a million all-time players and no day scores
-- would otherwise put a million NULLs in the way of every walk of its day periods.
CREATE INDEX board_current_scores_user ON board_current_scores (user_id);
CREATE INDEX board_current_scores_day ON board_current_scores (board, day_period, user_id) WHERE day_period IS NOT NULL;
CREATE INDEX board_current_scores_week ON board_current_scores (board, week_period, user_id) WHERE week_period IS NOT NULL;
CREATE INDEX board_current_scores_month ON board_current_scores (board, month_period, user_id) WHERE month_period IS NOT NULL;

-- Each (board, player)'s all-time row and newest period of each calendar window move to the current row.
INSERT INTO board_current_scores
SELECT board, user_id, max(updated_at),
       max(score) FILTER (WHERE board_window = 'all'), max(reached_at) FILTER (WHERE board_window = 'all'),
       COALESCE(max(duration_ms) FILTER (WHERE board_window = 'all'), 0),
       COALESCE(max(untimed_completions) FILTER (WHERE board_window = 'all'), 0),
       max(period) FILTER (WHERE board_window = 'day'), max(score) FILTER (WHERE board_window = 'day'),
       max(reached_at) FILTER (WHERE board_window = 'day'), COALESCE(max(duration_ms) FILTER (WHERE board_window = 'day'), 0),
       COALESCE(max(untimed_completions) FILTER (WHERE board_window = 'day'), 0),
       max(period) FILTER (WHERE board_window = 'week'), max(score) FILTER (WHERE board_window = 'week'),
       max(reached_at) FILTER (WHERE board_window = 'week'), COALESCE(max(duration_ms) FILTER (WHERE board_window = 'week'), 0),
       COALESCE(max(untimed_completions) FILTER (WHERE board_window = 'week'), 0),
       max(period) FILTER (WHERE board_window = 'month'), max(score) FILTER (WHERE board_window = 'month'),
       max(reached_at) FILTER (WHERE board_window = 'month'), COALESCE(max(duration_ms) FILTER (WHERE board_window = 'month'), 0),
       COALESCE(max(untimed_completions) FILTER (WHERE board_window = 'month'), 0)
FROM (SELECT DISTINCT ON (board, user_id, board_window) *
      FROM board_period_scores WHERE board_window IN ('all', 'day', 'week', 'month')
      ORDER BY board, user_id, board_window, period DESC) newest
GROUP BY board, user_id;

DELETE FROM board_period_scores p USING board_current_scores c
WHERE p.board = c.board AND p.user_id = c.user_id
  AND (p.board_window = 'all' OR (p.board_window = 'day' AND p.period = c.day_period)
       OR (p.board_window = 'week' AND p.period = c.week_period) OR (p.board_window = 'month' AND p.period = c.month_period));

CREATE VIEW board_scores AS
    SELECT board, 'all'::text AS board_window, 'all'::text AS period, user_id, all_score AS score, updated_at,
           all_reached_at AS reached_at, all_duration_ms AS duration_ms, all_untimed_completions AS untimed_completions
    FROM board_current_scores WHERE all_score IS NOT NULL
    UNION ALL
    SELECT board, 'day', day_period, user_id, day_score, updated_at, day_reached_at, day_duration_ms, day_untimed_completions
    FROM board_current_scores WHERE day_period IS NOT NULL
    UNION ALL
    SELECT board, 'week', week_period, user_id, week_score, updated_at, week_reached_at, week_duration_ms, week_untimed_completions
    FROM board_current_scores WHERE week_period IS NOT NULL
    UNION ALL
    SELECT board, 'month', month_period, user_id, month_score, updated_at, month_reached_at, month_duration_ms,
           month_untimed_completions
    FROM board_current_scores WHERE month_period IS NOT NULL
    UNION ALL
    SELECT board, board_window, period, user_id, score, updated_at, reached_at, duration_ms, untimed_completions
    FROM board_period_scores;
