-- Players on quiz boards for ops/bench/bench-quiz.sh, written in SQL; `podium rankings rebuild` then brings them into
-- Redis. Variables (psql -v):
--   players    players 'player-0' … (added when missing, so several runs share them)
--   boards     boards: player g is on board :prefix || (g % :boards), one row each, e.g. 'quiz:q-' gives quiz:q-0 …
--   prefix     the boards' id before the number
--   aggregate  the rows' aggregate: 'b' best, 'l' latest, 's' sum (migration 027)
--   week       the week period the rows hold (e.g. 2026-W49), ending at :week_ends (a timestamptz)
-- Each row holds one run as Podium keeps a best or latest board's (docs/RULES.md, "Best and latest boards"): its points
-- (1 to 32, so scores tie and the run's time and minute rank them), its completed_at within the week so far, its time
-- (20 s to about 4 min 40 s); all time holds the same run. Every board also gets its week's row in board_periods.
INSERT INTO users (user_id, display_name, points, completions, correct_answers, total_answers, created_at, updated_at)
SELECT 'player-' || g, 'Player ' || g, 10, 1, 5, 10, now(), now() FROM generate_series(0, :players - 1) g ON CONFLICT DO NOTHING;
INSERT INTO board_current_scores AS c (board, user_id, updated_at, aggregate,
                                       all_score, all_reached_at, all_duration_ms, all_untimed_completions,
                                       week_period, week_score, week_reached_at, week_duration_ms, week_untimed_completions)
SELECT board, user_id, reached_at, :'aggregate', score, reached_at, duration_ms, 0, :'week', score, reached_at, duration_ms, 0
FROM (SELECT :'prefix' || (g % :boards) AS board, 'player-' || g AS user_id,
             (hashtext('score-' || g) & 31) + 1 AS score,
             20000 + (hashtext('time-' || g) & 262143) AS duration_ms,
             -- within the week so far (its start to now, or to its end when it is over)
             w.starts + (least(now(), w.ends) - w.starts) * ((hashtext('at-' || g) & 65535) / 65536.0) AS reached_at
      FROM generate_series(0, :players - 1) g,
           (SELECT (:'week_ends')::timestamptz - interval '7 days' AS starts, (:'week_ends')::timestamptz AS ends) w) r
ON CONFLICT DO NOTHING;
INSERT INTO boards (board, created_at) SELECT :'prefix' || b, now() FROM generate_series(0, :boards - 1) b ON CONFLICT DO NOTHING;
INSERT INTO board_periods (board, board_window, period, ends_at)
SELECT :'prefix' || b, 'week', :'week', :'week_ends' FROM generate_series(0, :boards - 1) b ON CONFLICT DO NOTHING;
ANALYZE;
