-- Best and latest boards (docs/RULES.md, "Best and latest boards"): a board keeps either the sum of a player's
-- completions in a period, or one run of them (the best, or the latest) whole in the same columns (score = the run's
-- value, reached_at = its completed_at, duration_ms = its time, untimed_completions = 1 when it came without one).
--
-- aggregate  how the row's board keeps completions: 's' sum, 'b' the best run (by the run key), 'd' the best run of a
--            duration board (by the earliest key), 'l' the latest run. A batch's upsert reads it from EXCLUDED, which
--            sees table columns only, hence a column beside each row rather than a lookup of the board's rule.
--
-- Adding a column with a constant default changes the catalogue only: no table is rewritten.
ALTER TABLE board_current_scores ADD COLUMN aggregate "char" NOT NULL DEFAULT 's';
ALTER TABLE board_period_scores ADD COLUMN aggregate "char" NOT NULL DEFAULT 's';
