-- 1,000,000 players on one board (topic:scale), written in SQL for ops/bench/bench.sh and ops/bench/bench-cluster.sh;
-- `podium rankings rebuild` then brings them into Redis.
INSERT INTO users (user_id, display_name, points, completions, correct_answers, total_answers, created_at, updated_at)
SELECT 'player-' || g, 'Player ' || g, g % 5000, 1, 5, 10, now(), now() FROM generate_series(0, 999999) g ON CONFLICT DO NOTHING;
INSERT INTO board_current_scores (board, user_id, all_score, updated_at)
SELECT 'topic:scale', 'player-' || g, g % 5000, now() FROM generate_series(0, 999999) g ON CONFLICT DO NOTHING;
INSERT INTO boards VALUES ('topic:scale', now()) ON CONFLICT DO NOTHING;
