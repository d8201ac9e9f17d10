-- A player's active days move from one row each in user_days onto the player's row (issue 24).
--
-- users.days  the local days (in the player's time zone, as day numbers since 1970-01-01) with at least one
--             completion, sorted and without repeats: streaks are runs of consecutive numbers.
--
-- A completion batch already updates the player's row for its totals; merging its days there saves a row per new
-- day (a new player's first completion writes 9 rows, not 10) and the batch's separate days statement. The array
-- only changes on a player's first completion of a local day, so the other updates of the row leave it in place.
ALTER TABLE users ADD COLUMN days integer[] NOT NULL DEFAULT '{}';

UPDATE users u SET days = d.days
FROM (SELECT user_id, array_agg(day ORDER BY day) AS days FROM user_days GROUP BY user_id) d
WHERE u.user_id = d.user_id;

DROP TABLE user_days;
