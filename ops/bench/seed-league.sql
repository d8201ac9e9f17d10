-- A league of :players players for ops/bench/bench-leagues.sh, written in SQL: six tiers, cohorts of 30, every player
-- placed in week 2020-W10 (long over, so close-periods closes it at once) with a score of 1 to 1024.
-- Player g is in tier g % 6, cohort (g / 6) / 30 + 1 of it.
INSERT INTO users (user_id, display_name, points, completions, correct_answers, total_answers, created_at, updated_at)
SELECT 'player-' || g, 'Player ' || g, 10, 1, 5, 10, now(), now() FROM generate_series(0, :players - 1) g;
INSERT INTO leagues (id, name, scope, time_zone, tiers, cohort_size, metric, tie_break, medals, created_at)
VALUES ('bench', 'Bench league', '{global}', 'UTC', '[
    {"name": "bronze", "title": "Bronze", "up": 7, "down": 0}, {"name": "silver", "title": "Silver", "up": 7, "down": 5},
    {"name": "gold", "title": "Gold", "up": 7, "down": 5}, {"name": "sapphire", "title": "Sapphire", "up": 7, "down": 5},
    {"name": "ruby", "title": "Ruby", "up": 7, "down": 5}, {"name": "diamond", "title": "Diamond", "up": 0, "down": 5}]',
    30, 'points', 'shared', true, '2020-01-01T00:00:00Z');
INSERT INTO league_entries (league_id, period, user_id, tier, cohort, placed_at)
SELECT 'bench', '2020-W10', 'player-' || g, g % 6, (g / 6) / 30 + 1, '2020-03-02T08:00:00Z' FROM generate_series(0, :players - 1) g;
INSERT INTO league_cohorts (league_id, period, tier, cohort, members)
SELECT league_id, period, tier, cohort, count(*) FROM league_entries GROUP BY league_id, period, tier, cohort;
INSERT INTO board_current_scores (board, user_id, updated_at, week_period, week_score, week_reached_at)
SELECT 'league:bench:' || (ARRAY['bronze', 'silver', 'gold', 'sapphire', 'ruby', 'diamond'])[tier + 1] || ':' || cohort, user_id,
       '2020-03-05T12:00:00Z', period, (hashtext(user_id) & 1023) + 1, '2020-03-05T12:00:00Z'
FROM league_entries;
INSERT INTO boards (board, created_at) SELECT DISTINCT board, now() FROM board_current_scores WHERE board LIKE 'league:%';
INSERT INTO board_periods (board, board_window, period, ends_at)
SELECT DISTINCT board, 'week', '2020-W10', timestamptz '2020-03-09T00:00:00Z' FROM board_current_scores WHERE board LIKE 'league:%';
ANALYZE;
