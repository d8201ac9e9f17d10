-- Completions, partitioned by the month (UTC) they were completed in (issue 25), as the events are since 021.
--
-- completions          the same columns; the key is (id, completed_at), as a partitioned table's key must hold the
--                      partition key. Ids stay unique because a batch looks each id up, under the id's advisory lock,
--                      in every month a completion with that id can be in while Podium remembers it
--                      (CompletionMonths.lookup, docs/ARCHITECTURE.md "Completions by month").
-- completions_YYYY_MM  one partition per month, from the month of the oldest completion to two months ahead; the prune
--                      job keeps two months ahead and, when `completion_days` is set, drops whole months past it.
-- completions_default  completions of a month without a partition yet; moved out when their month's partition is made.
--
-- podium_month_partition(parent, time_column, month) makes a month's partition of either table (moving its rows out of
-- the default partition) and replaces podium_event_month.
--
-- The completions are copied into the new table under this migration's lock: completion batches wait until it
-- commits (ops/README.md, "Upgrading", has the time it took per million completions).
CREATE FUNCTION podium_month_partition(parent text, time_column text, month date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    name  text := parent || '_' || to_char(month, 'YYYY_MM');
    lower timestamptz := month::timestamp AT TIME ZONE 'UTC';
    upper timestamptz := (month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
BEGIN
    IF extract(day FROM month) <> 1 THEN
        RAISE EXCEPTION 'podium_month_partition: % is not the first of a month', month;
    END IF;
    IF to_regclass(name) IS NOT NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMPRESSION)', name, parent);
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
                   parent || '_default', time_column, lower, time_column, upper, name);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, lower, upper);
    RETURN true;
END
$$;
DROP FUNCTION podium_event_month(date);

ALTER TABLE completions RENAME TO completions_before_022;
ALTER INDEX completions_pkey RENAME TO completions_before_022_pkey;
ALTER INDEX completions_user_history RENAME TO completions_before_022_user_history;
ALTER INDEX completions_unranked RENAME TO completions_before_022_unranked;

CREATE TABLE completions (
    id            text NOT NULL,
    user_id       text NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    quiz_id       text NOT NULL,
    topic         text NOT NULL,
    difficulty    text NOT NULL CHECK (difficulty IN ('easy', 'medium', 'hard')),
    correct       integer NOT NULL CHECK (correct >= 0),
    total         integer NOT NULL CHECK (total > 0 AND correct <= total),
    duration_ms   bigint CHECK (duration_ms >= 0),
    groups        text[] NOT NULL DEFAULT '{}',
    completed_at  timestamptz NOT NULL,
    recorded_at   timestamptz NOT NULL,
    points        bigint NOT NULL,
    request_hash  text NOT NULL,
    -- The first answer as jsonb, on completions recorded before migration 020; NULL on later ones.
    response      jsonb COMPRESSION lz4,
    ranked        boolean NOT NULL DEFAULT false,
    -- The first answer's JSON text, returned unchanged when the same id is posted again.
    answer        text COMPRESSION lz4,
    CONSTRAINT completions_answer_kept CHECK (answer IS NOT NULL OR response IS NOT NULL),
    PRIMARY KEY (id, completed_at)
) PARTITION BY RANGE (completed_at);
CREATE INDEX completions_user_history ON completions (user_id, completed_at DESC, id DESC);
CREATE INDEX completions_unranked ON completions (recorded_at) WHERE NOT ranked;
CREATE TABLE completions_default PARTITION OF completions DEFAULT;

SELECT podium_month_partition('completions', 'completed_at', month::date)
FROM generate_series(
    date_trunc('month', COALESCE((SELECT min(completed_at) FROM completions_before_022), now()) AT TIME ZONE 'UTC'),
    date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months',
    interval '1 month') AS month;

INSERT INTO completions (id, user_id, quiz_id, topic, difficulty, correct, total, duration_ms, groups, completed_at,
                         recorded_at, points, request_hash, response, ranked, answer)
SELECT id, user_id, quiz_id, topic, difficulty, correct, total, duration_ms, groups, completed_at,
       recorded_at, points, request_hash, response, ranked, answer
FROM completions_before_022;
DROP TABLE completions_before_022;
