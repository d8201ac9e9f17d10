-- Making a month's partition without deadlocks (issue 25).
--
-- Making a month's partition moves rows out of the default partition and attaches the new one. Attaching a partition
-- of completions also added its foreign key to users, which locks users (SHARE ROW EXCLUSIVE). PostgreSQL found
-- deadlocks between the prune job and transactions that had written a player's row and then read completions (a new
-- time zone counting the days again), or had read completions and then wrote players (a completion batch):
--
-- completions.user_id  loses its foreign key to users. Nothing writes a completion without its player's row in the
--                      same transaction, under the player's lock, and erasure, under the same lock, deletes the
--                      player's completions itself (UserStore.erase) instead of by cascade. It also spares every
--                      completion the key's check.
-- podium_month_partition  takes the table's ACCESS EXCLUSIVE lock before anything else: every query locks the table
--                      before its partitions, so none can hold a partition the maker waits for while it waits for
--                      the table. The lock is held until the job's transaction commits: milliseconds when the default
--                      partition is empty, as it is when the job made the months ahead of time; when the month's
--                      partition exists the function returns at once, taking no lock.
-- Its name depends on the installation's history (022 made it while the old table still held the first name).
DO $$
DECLARE
    name text;
BEGIN
    FOR name IN SELECT conname FROM pg_constraint WHERE conrelid = 'completions'::regclass AND contype = 'f' LOOP
        EXECUTE format('ALTER TABLE completions DROP CONSTRAINT %I', name);
    END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION podium_month_partition(parent text, time_column text, month date) RETURNS boolean LANGUAGE plpgsql AS $$
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
    EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', parent);
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
