-- Attempts a run had used before it was last re-run by hand. A re-run gets a fresh set of
-- attempts, and its retries back off from the first delay again: the backoff counts
-- `attempt - attempts_before`, not every attempt the slot ever had.
ALTER TABLE job_runs ADD COLUMN attempts_before integer NOT NULL DEFAULT 0;
