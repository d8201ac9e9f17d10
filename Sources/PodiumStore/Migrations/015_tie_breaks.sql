-- Tie-break policies (shared, earliest, fastest): what each player's place on a board period is ranked by
-- after the score. reached_at is the latest completed_at among the completions that added to the score (null
-- until one did), duration_ms their summed playing time. Adding columns with constant defaults rewrites nothing.
ALTER TABLE board_scores ADD COLUMN reached_at timestamptz, ADD COLUMN duration_ms bigint NOT NULL DEFAULT 0;
