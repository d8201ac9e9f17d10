-- The events outbox, partitioned by the month its events occurred in (issue 25).
--
-- events          the same columns; the key is (id, occurred_at), as a partitioned table's key must hold the partition
--                 key. Ids still come from events_id_seq alone, so they stay unique.
-- events_YYYY_MM  one partition per month (UTC), from the month of the oldest event to two months ahead; the prune job
--                 keeps two months ahead (podium_event_month) and drops whole months once they are past the
--                 retention, instead of deleting row by row.
-- events_default  events of a month without a partition yet (a clock far ahead); podium_event_month moves them into
--                 their month's partition when it makes it.
--
-- webhook_deliveries.event_id no longer references events (a reference needs a unique key on id alone, which a
-- table partitioned by occurred_at cannot have): pruning and erasure delete an event's deliveries with it.
--
-- The events are copied into the new table under this migration's lock: writers of events (every completion) wait
-- until it commits (ops/README.md, "Upgrading", has the time it took per million events).
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;
ALTER SEQUENCE events_id_seq OWNED BY NONE;
ALTER TABLE events RENAME TO events_before_021;
ALTER INDEX events_pkey RENAME TO events_before_021_pkey;
ALTER INDEX events_feed RENAME TO events_before_021_feed;
ALTER INDEX events_user RENAME TO events_before_021_user;
ALTER INDEX events_age RENAME TO events_before_021_age;

CREATE TABLE events (
    id           bigint NOT NULL DEFAULT nextval('events_id_seq'),
    tx           xid8 NOT NULL DEFAULT pg_current_xact_id(),
    type         text NOT NULL,
    user_id      text,
    occurred_at  timestamptz NOT NULL,
    payload      jsonb NOT NULL,
    PRIMARY KEY (id, occurred_at)
) PARTITION BY RANGE (occurred_at);
ALTER SEQUENCE events_id_seq OWNED BY events.id;
CREATE INDEX events_feed ON events (tx, id);
CREATE INDEX events_user ON events (user_id) WHERE user_id IS NOT NULL;
CREATE TABLE events_default PARTITION OF events DEFAULT;

-- Makes the partition of the month starting on `month` (a first of the month, UTC) unless it exists, moving that
-- month's events out of events_default into it; returns whether it made one. Callers serialize on an advisory lock.
CREATE FUNCTION podium_event_month(month date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    name  text := 'events_' || to_char(month, 'YYYY_MM');
    lower timestamptz := month::timestamp AT TIME ZONE 'UTC';
    upper timestamptz := (month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
BEGIN
    IF extract(day FROM month) <> 1 THEN
        RAISE EXCEPTION 'podium_event_month: % is not the first of a month', month;
    END IF;
    IF to_regclass(name) IS NOT NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
    EXECUTE format('WITH moved AS (DELETE FROM events_default WHERE occurred_at >= %L AND occurred_at < %L RETURNING *)
                    INSERT INTO %I SELECT * FROM moved', lower, upper, name);
    EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lower, upper);
    RETURN true;
END
$$;

SELECT podium_event_month(month::date)
FROM generate_series(
    date_trunc('month', COALESCE((SELECT min(occurred_at) FROM events_before_021), now()) AT TIME ZONE 'UTC'),
    date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months',
    interval '1 month') AS month;

INSERT INTO events (id, tx, type, user_id, occurred_at, payload)
SELECT id, tx, type, user_id, occurred_at, payload FROM events_before_021;
DROP TABLE events_before_021;
