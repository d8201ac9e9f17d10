-- The `fastest` tie-break counts a scoring completion without duration_ms as the slowest possible: how many of a
-- player's completions that added to the score on a board period came without one. Rows written before this
-- migration start at 0 (their untimed completions were not counted apart). A constant default rewrites nothing.
ALTER TABLE board_scores ADD COLUMN untimed_completions bigint NOT NULL DEFAULT 0;
